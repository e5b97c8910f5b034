import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { keys } from '../../shared/adapters/dynamodb/keys.js';
import { PLATFORM_IDS } from '../../shared/networks/definitions.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

describe('authentication and access over HTTP', () => {
  let host: TestHost;
  let tenant: BootstrapResult;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Auth' });
  });
  afterAll(async () => {
    await host.stop();
  });

  const accountsPath = () => `/v1/workspaces/${tenant.workspaceId}/accounts`;

  it('accepts a valid key', async () => {
    const response = await host.call(accountsPath(), { apiKey: tenant.apiKey });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { platform: string }[] };
    // Bootstrap's sandbox accounts: one per network.
    expect(body.data.map((account) => account.platform).sort()).toEqual([...PLATFORM_IDS].sort());
  });

  it.each([
    ['no header', undefined],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a malformed key', 'Bearer smcp_123'],
    ['an uppercase key', `Bearer smcp_${'A'.repeat(64)}`],
    ['an unknown key', `Bearer smcp_${'0'.repeat(64)}`],
  ])('answers 401 unauthorized to %s', async (_case, authorization) => {
    const response = await host.call(accountsPath(), {
      headers: authorization ? { Authorization: authorization } : {},
    });
    await expectEnvelope(response, 401, 'unauthorized');
  });

  it('answers 401 to a revoked key, and 409 conflict to revoking it again', async () => {
    const agent = await host.admin.createAgent(
      { role: 'owner' },
      { tenantId: tenant.tenantId, name: 'Revoked', fromWorkspaceId: tenant.workspaceId },
    );
    const key = await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });
    expect((await host.call(accountsPath(), { apiKey: key.plaintext })).status).toBe(200);

    await host.admin.revokeApiKey({ tenantId: tenant.tenantId, keyId: key.record.keyId });

    await expectEnvelope(await host.call(accountsPath(), { apiKey: key.plaintext }), 401, 'unauthorized');
    await expect(
      host.admin.revokeApiKey({ tenantId: tenant.tenantId, keyId: key.record.keyId }),
    ).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
    });
  });

  it('answers 401 to the key of a deleted agent', async () => {
    const agent = await host.admin.createAgent(
      { role: 'owner' },
      { tenantId: tenant.tenantId, name: 'Deleted', fromWorkspaceId: tenant.workspaceId },
    );
    const key = await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });
    await host.admin.deleteAgent(tenant.tenantId, agent.agentId);
    await expectEnvelope(await host.call(accountsPath(), { apiKey: key.plaintext }), 401, 'unauthorized');
  });

  it('answers 403 plan_inactive while the plan is inactive, and serves again once active', async () => {
    const other = await host.admin.bootstrap({ name: 'Lapsed' });
    await host.admin.setPlan(other.tenantId, { planStatus: 'inactive' });
    const path = `/v1/workspaces/${other.workspaceId}/accounts`;
    await expectEnvelope(await host.call(path, { apiKey: other.apiKey }), 403, 'plan_inactive');

    await host.admin.setPlan(other.tenantId, { planStatus: 'active' });
    expect((await host.call(path, { apiKey: other.apiKey })).status).toBe(200);
  });

  it('answers 403 permission_denied naming the missing permission', async () => {
    const agent = await host.admin.createAgent(
      { role: 'owner' },
      {
        tenantId: tenant.tenantId,
        name: 'Posts only',
        fromWorkspaceId: tenant.workspaceId,
        permissions: ['posts:read'],
      },
    );
    const key = await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });
    const body = await expectEnvelope(
      await host.call(accountsPath(), { apiKey: key.plaintext }),
      403,
      'permission_denied',
    );
    expect(body.required).toBe('accounts:read');
    // An operation that needs no permission still works for this agent.
    expect((await host.call('/v1/workspaces', { apiKey: key.plaintext })).status).toBe(200);
  });

  describe('agent scope', () => {
    it('a selected agent sees only its workspaces; an all agent sees every one, including newer ones', async () => {
      const owner = await host.admin.bootstrap({ name: 'Scopes' });
      const extra = await host.admin.createWorkspace({ tenantId: owner.tenantId, name: 'Extra' });
      const allAgent = await host.admin.createAgent(
        { role: 'super_admin' },
        { tenantId: owner.tenantId, name: 'Everything', scope: { kind: 'all' } },
      );
      const allKey = await host.admin.createApiKey({ tenantId: owner.tenantId, agentId: allAgent.agentId });
      const later = await host.admin.createWorkspace({ tenantId: owner.tenantId, name: 'Later' });

      const listed = async (apiKey: string) => {
        const response = await host.call('/v1/workspaces', { apiKey });
        return ((await response.json()) as { data: { id: string }[] }).data.map((w) => w.id).sort();
      };
      expect(await listed(owner.apiKey)).toEqual([owner.workspaceId]);
      expect(await listed(allKey.plaintext)).toEqual(
        [owner.workspaceId, extra.workspaceId, later.workspaceId].sort(),
      );

      const selectedReadsExtra = await host.call(`/v1/workspaces/${extra.workspaceId}/accounts`, {
        apiKey: owner.apiKey,
      });
      await expectEnvelope(selectedReadsExtra, 404, 'not_found');
      const allReadsLater = await host.call(`/v1/workspaces/${later.workspaceId}/accounts`, {
        apiKey: allKey.plaintext,
      });
      expect(allReadsLater.status).toBe(200);
    });

    it("an all agent still cannot reach another tenant's workspace", async () => {
      const owner = await host.admin.bootstrap({ name: 'All but mine' });
      const allAgent = await host.admin.createAgent(
        { role: 'super_admin' },
        { tenantId: owner.tenantId, name: 'Everything', scope: { kind: 'all' } },
      );
      const allKey = await host.admin.createApiKey({ tenantId: owner.tenantId, agentId: allAgent.agentId });
      const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts`, {
        apiKey: allKey.plaintext,
      });
      await expectEnvelope(response, 404, 'not_found');
    });

    it('only a super-admin may create an all agent', async () => {
      await expect(
        host.admin.createAgent(
          { role: 'owner' },
          { tenantId: tenant.tenantId, name: 'x', scope: { kind: 'all' } },
        ),
      ).rejects.toMatchObject({ code: 'permission_denied' });
    });
  });

  describe('accounts', () => {
    it('reads one account and 404s for an account of another workspace', async () => {
      const own = await host.call(`${accountsPath()}/${tenant.accounts.linkedin}`, { apiKey: tenant.apiKey });
      expect(own.status).toBe(200);
      expect(await own.json()).toMatchObject({
        id: tenant.accounts.linkedin,
        platform: 'linkedin',
        status: 'connected',
      });

      const other = await host.admin.bootstrap({ name: 'Neighbour' });
      const foreign = await host.call(`${accountsPath()}/${other.accounts.linkedin}`, {
        apiKey: tenant.apiKey,
      });
      await expectEnvelope(foreign, 404, 'not_found');
    });

    it('filters by platform, accepting x for twitter', async () => {
      const response = await host.call(`${accountsPath()}?platform=x`, { apiKey: tenant.apiKey });
      const body = (await response.json()) as { data: { id: string }[] };
      expect(body.data.map((account) => account.id)).toEqual([tenant.accounts.twitter]);
    });

    it('pages with limit and nextCursor, and refuses a forged cursor', async () => {
      const first = (await (
        await host.call(`${accountsPath()}?limit=2`, { apiKey: tenant.apiKey })
      ).json()) as {
        data: { id: string }[];
        nextCursor: string | null;
      };
      expect(first.data).toHaveLength(2);
      expect(first.nextCursor).toBeTypeOf('string');
      const seen = [...first.data.map((a) => a.id)];
      let cursor = first.nextCursor;
      while (cursor) {
        const page = (await (
          await host.call(`${accountsPath()}?limit=2&cursor=${cursor}`, { apiKey: tenant.apiKey })
        ).json()) as { data: { id: string }[]; nextCursor: string | null };
        seen.push(...page.data.map((a) => a.id));
        cursor = page.nextCursor;
      }
      expect(seen.sort()).toEqual(Object.values(tenant.accounts).sort());

      const forged = Buffer.from(JSON.stringify({ sk: 'TENANT#x' })).toString('base64url');
      const response = await host.call(`${accountsPath()}?cursor=${forged}`, { apiKey: tenant.apiKey });
      await expectEnvelope(response, 400, 'INVALID_REQUEST');
    });

    it('never returns token material, even when the stored account holds some', async () => {
      const db = makeDocumentClient(
        makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
      );
      const account = await host.admin.createSandboxAccount({
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        platform: 'youtube',
      });
      await db.send(
        new PutCommand({
          TableName: host.config.tables.main,
          Item: {
            ...account,
            ...keys.account(tenant.tenantId, tenant.workspaceId, account.accountId),
            entity: 'account',
            accessTokenCiphertext: 'CIPHERTEXT-ACCESS',
            refreshTokenCiphertext: 'CIPHERTEXT-REFRESH',
          },
        }),
      );
      const one = await host.call(`${accountsPath()}/${account.accountId}`, { apiKey: tenant.apiKey });
      const list = await host.call(accountsPath(), { apiKey: tenant.apiKey });
      for (const text of [await one.text(), await list.text()]) {
        expect(text).not.toMatch(/CIPHERTEXT|Token|pk|TENANT#/);
      }
      db.destroy();
    });
  });
});
