import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../../shared/adapters/dynamodb/create-tables.js';
import { localTableNames } from '../../../shared/adapters/dynamodb/tables.js';
import { makeDynamoTenancyStore } from '../../../shared/adapters/dynamodb/tenancy-store.js';
import { hashApiKey } from '../../../shared/domain/api-keys.js';
import { InvalidRequestError, NotFoundError, PermissionDeniedError } from '../../../shared/domain/errors.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { TenancyStore } from '../../../shared/ports/tenancy-store.js';
import { type Admin, makeAdmin } from '../../../shared/services/admin.js';

const START = Date.UTC(2026, 5, 1, 9, 0, 0);

/** What a call fails with (undefined when it succeeds), caught at once so no rejection goes unhandled. */
const failureOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/**
 * The admin use cases the dashboard's agents, keys, workspaces and policies pages run, on the
 * DynamoDB adapter: the new store reads and writes against DynamoDB Local.
 */
describe('admin use cases for the dashboard, on DynamoDB Local', () => {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
  const clock = fixedClock(START);
  let store: TenancyStore;
  let admin: Admin;

  beforeAll(async () => {
    const names = localTableNames(`d${Math.random().toString(36).slice(2, 8)}-`);
    await ensureTables(client, names);
    store = makeDynamoTenancyStore(makeDocumentClient(client), names.main);
    admin = makeAdmin({ tenancy: store, clock });
  });
  afterAll(() => client.destroy());

  const tenantWithTwoWorkspaces = async () => {
    const tenant = await admin.createTenant({ name: 'Acme' });
    const first = await admin.createWorkspace({ tenantId: tenant.tenantId, name: 'First' });
    const second = await admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Second' });
    return { tenantId: tenant.tenantId, first: first.workspaceId, second: second.workspaceId };
  };

  it('renames a workspace, trimming the name, and refuses an empty name or a missing workspace', async () => {
    // Prepare
    const { tenantId, first } = await tenantWithTwoWorkspaces();

    // Act
    const renamed = await admin.renameWorkspace({ tenantId, workspaceId: first, name: '  Marketing ' });
    const empty = failureOf(admin.renameWorkspace({ tenantId, workspaceId: first, name: ' ' }));
    const missing = failureOf(
      admin.renameWorkspace({
        tenantId,
        workspaceId: 'wks_01ARZ3NDEKTSV4RRFFQ69G5FAV',
        name: 'x',
      }),
    );

    // Assess
    expect(renamed.name).toBe('Marketing');
    expect((await store.getWorkspace(tenantId, first))?.name).toBe('Marketing');
    expect(await empty).toBeInstanceOf(InvalidRequestError);
    expect(await missing).toBeInstanceOf(NotFoundError);
  });

  it("lists a workspace's locked agents apart from the tenant-level ones, without deleted agents", async () => {
    // Prepare
    const { tenantId, first, second } = await tenantWithTwoWorkspaces();
    const lockedFirst = await admin.createAgent(
      { role: 'owner' },
      { tenantId, name: 'a', fromWorkspaceId: first },
    );
    const lockedSecond = await admin.createAgent(
      { role: 'owner' },
      { tenantId, name: 'b', fromWorkspaceId: second },
    );
    const tenantLevel = await admin.createAgent(
      { role: 'owner' },
      { tenantId, name: 'c', scope: { kind: 'selected', workspaceIds: [first, second] } },
    );
    const gone = await admin.createAgent({ role: 'owner' }, { tenantId, name: 'd', fromWorkspaceId: first });
    await admin.deleteAgent(tenantId, gone.agentId);
    const other = await tenantWithTwoWorkspaces();
    await admin.createAgent(
      { role: 'owner' },
      { tenantId: other.tenantId, name: 'e', fromWorkspaceId: other.first },
    );

    // Act
    const ofFirst = await admin.listAgentsOfWorkspace(tenantId, first);
    const ofTenant = await admin.listAgents(tenantId);

    // Assess
    expect(ofFirst.map((agent) => agent.agentId)).toEqual([lockedFirst.agentId]);
    expect(ofTenant.map((agent) => agent.agentId)).toEqual([tenantLevel.agentId]);
    expect((await store.listAgents(tenantId)).map((agent) => agent.agentId).sort()).toEqual(
      [lockedFirst.agentId, lockedSecond.agentId, tenantLevel.agentId, gone.agentId].sort(),
    );
  });

  it('edits an agent under the agent rules and checks the workspaces it names', async () => {
    // Prepare
    const { tenantId, first, second } = await tenantWithTwoWorkspaces();
    const locked = await admin.createAgent(
      { role: 'owner' },
      { tenantId, name: 'a', fromWorkspaceId: first },
    );
    const tenantLevel = await admin.createAgent(
      { role: 'owner' },
      { tenantId, name: 'c', scope: { kind: 'selected', workspaceIds: [first] } },
    );

    // Act
    const edited = await admin.updateAgent(
      { role: 'workspace_admin', workspaceId: first },
      { tenantId, agentId: locked.agentId, change: { name: 'reader', permissions: ['posts:read'] } },
    );
    const moved = await admin.updateAgent(
      { role: 'owner' },
      {
        tenantId,
        agentId: tenantLevel.agentId,
        change: { scope: { kind: 'selected', workspaceIds: [second] } },
      },
    );
    const byOtherAdmin = failureOf(
      admin.updateAgent(
        { role: 'workspace_admin', workspaceId: second },
        { tenantId, agentId: locked.agentId, change: { name: 'x' } },
      ),
    );
    const toAll = failureOf(
      admin.updateAgent(
        { role: 'owner' },
        { tenantId, agentId: tenantLevel.agentId, change: { scope: { kind: 'all' } } },
      ),
    );
    const toForeign = failureOf(
      admin.updateAgent(
        { role: 'owner' },
        {
          tenantId,
          agentId: tenantLevel.agentId,
          change: { scope: { kind: 'selected', workspaceIds: ['wks_01ARZ3NDEKTSV4RRFFQ69G5FAV'] } },
        },
      ),
    );

    // Assess
    expect(edited).toMatchObject({ name: 'reader', permissions: ['posts:read'], lockedWorkspaceId: first });
    expect(await store.getAgent(tenantId, locked.agentId)).toEqual(edited);
    expect(moved.scope).toEqual({ kind: 'selected', workspaceIds: [second] });
    expect(await byOtherAdmin).toBeInstanceOf(PermissionDeniedError);
    expect(await toAll).toBeInstanceOf(PermissionDeniedError);
    expect(await toForeign).toBeInstanceOf(NotFoundError);
    expect((await store.getAgent(tenantId, tenantLevel.agentId))?.scope).toEqual({
      kind: 'selected',
      workspaceIds: [second],
    });
  });

  it("lists an agent's keys without their hashes, revokes only the agent's own, and records last use", async () => {
    // Prepare
    const { tenantId, first } = await tenantWithTwoWorkspaces();
    const agent = await admin.createAgent({ role: 'owner' }, { tenantId, name: 'a', fromWorkspaceId: first });
    const other = await admin.createAgent({ role: 'owner' }, { tenantId, name: 'b', fromWorkspaceId: first });
    const one = await admin.createApiKey({ tenantId, agentId: agent.agentId });
    clock.advance(1_000);
    const two = await admin.createApiKey({ tenantId, agentId: agent.agentId });
    const theirs = await admin.createApiKey({ tenantId, agentId: other.agentId });

    // Act
    await store.touchApiKey(hashApiKey(one.plaintext), '2026-06-01T10:00:00.000Z');
    await store.touchApiKey(hashApiKey(one.plaintext), '2026-06-01T09:30:00.000Z');
    await store.touchApiKey(hashApiKey('smcp_unknown'), '2026-06-01T10:00:00.000Z');
    await admin.revokeApiKey({ tenantId, agentId: agent.agentId, keyId: two.record.keyId });
    const foreign = failureOf(
      admin.revokeApiKey({ tenantId, agentId: agent.agentId, keyId: theirs.record.keyId }),
    );
    const keys = await admin.listApiKeys(tenantId, agent.agentId);

    // Assess
    expect(await foreign).toBeInstanceOf(NotFoundError);
    expect(keys.map((key) => key.keyId)).toEqual([one.record.keyId, two.record.keyId]);
    expect(keys[0]).toEqual({
      keyId: one.record.keyId,
      tenantId,
      agentId: agent.agentId,
      hint: one.record.hint,
      createdAt: one.record.createdAt,
      lastUsedAt: '2026-06-01T10:00:00.000Z',
    });
    expect(keys[1]?.revokedAt).toBeDefined();
    expect(JSON.stringify(keys)).not.toContain(one.record.keyHash);
    expect((await store.getApiKeyByHash(theirs.record.keyHash))?.revokedAt).toBeUndefined();
  });

  it('replaces every policy with setPolicies, under the rule the admin CLI uses', async () => {
    // Prepare
    const { tenantId, first } = await tenantWithTwoWorkspaces();
    await admin.changePolicies(tenantId, first, { set: { requireApproval: true, blockedTerms: ['spam'] } });

    // Act
    const saved = await admin.setPolicies(tenantId, first, { requireAltText: true });
    const refused = failureOf(admin.setPolicies(tenantId, first, { blackoutDates: ['2026-02-30'] }));

    // Assess
    expect(saved.policies).toEqual({ requireAltText: true });
    expect(await refused).toMatchObject({ details: { 'blackoutDates.0': ['Not a calendar date.'] } });
    expect((await store.getWorkspace(tenantId, first))?.policies).toEqual({ requireAltText: true });
  });
});
