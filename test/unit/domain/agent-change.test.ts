import { describe, expect, it } from 'vitest';
import { planAgent, planAgentChange } from '../../../shared/domain/agent-rules.js';
import { InvalidRequestError, PermissionDeniedError } from '../../../shared/domain/errors.js';
import type { Actor } from '../../../shared/domain/tenancy.js';
import { anAgent } from '../support/builders.js';
import { thrownBy } from '../support/thrown.js';

const superAdmin: Actor = { role: 'super_admin' };
const owner: Actor = { role: 'owner' };
const adminOf = (workspaceId: string): Actor => ({ role: 'workspace_admin', workspaceId });

const locked = anAgent({ lockedWorkspaceId: 'wks_A', scope: { kind: 'selected', workspaceIds: ['wks_A'] } });
const tenantLevel = anAgent({ scope: { kind: 'selected', workspaceIds: ['wks_A', 'wks_B'] } });

describe('planAgentChange', () => {
  it("lets the workspace's admin rename a locked agent and change its permissions", () => {
    const changed = planAgentChange(adminOf('wks_A'), locked, {
      name: ' reader ',
      permissions: ['posts:read'],
    });

    expect(changed).toEqual({ ...locked, name: 'reader', permissions: ['posts:read'] });
  });

  it('denies the admin of another workspace', () => {
    const thrown = thrownBy(() => planAgentChange(adminOf('wks_B'), locked, { name: 'x' }));

    expect(thrown).toBeInstanceOf(PermissionDeniedError);
  });

  it.each<[string, Actor]>([
    ['its workspace admin', adminOf('wks_A')],
    ['a super-admin', superAdmin],
  ])('keeps a locked agent in its workspace, even for %s', (_label, actor) => {
    expect(() =>
      planAgentChange(actor, locked, { scope: { kind: 'selected', workspaceIds: ['wks_B'] } }),
    ).toThrow(InvalidRequestError);
    expect(() => planAgentChange(actor, locked, { scope: { kind: 'all' } })).toThrow(InvalidRequestError);
  });

  it('denies a workspace admin any tenant-level agent, even one that reaches their workspace', () => {
    const thrown = thrownBy(() => planAgentChange(adminOf('wks_A'), tenantLevel, { name: 'x' }));

    expect(thrown).toBeInstanceOf(PermissionDeniedError);
  });

  it('grants `all` only under a super-admin', () => {
    const byOwner = thrownBy(() => planAgentChange(owner, tenantLevel, { scope: { kind: 'all' } }));
    const bySuperAdmin = planAgentChange(superAdmin, tenantLevel, { scope: { kind: 'all' } });

    expect(byOwner).toBeInstanceOf(PermissionDeniedError);
    expect(bySuperAdmin.scope).toEqual({ kind: 'all' });
  });

  it('lets an owner rename an agent that already has `all`, keeping it', () => {
    const everywhere = anAgent({ scope: { kind: 'all' } });

    const changed = planAgentChange(owner, everywhere, { name: 'renamed', scope: { kind: 'all' } });

    expect(changed.scope).toEqual({ kind: 'all' });
    expect(changed.name).toBe('renamed');
  });

  it.each<[string, Parameters<typeof planAgentChange>[2], string]>([
    ['an empty name', { name: '  ' }, 'name'],
    ['no permission', { permissions: [] }, 'permissions'],
    [
      'a selected scope without workspaces',
      { scope: { kind: 'selected', workspaceIds: [] } },
      'workspaceIds',
    ],
  ])('refuses %s, naming the field', (_label, change, field) => {
    const thrown = thrownBy(() => planAgentChange(owner, tenantLevel, change));

    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect((thrown as InvalidRequestError).details?.[field]).toBeDefined();
  });

  it('refuses an agent without a name or permission at creation too', () => {
    expect(() => planAgent(owner, { name: ' ', fromWorkspaceId: 'wks_A' })).toThrow(InvalidRequestError);
    expect(() => planAgent(owner, { name: 'bot', fromWorkspaceId: 'wks_A', permissions: [] })).toThrow(
      InvalidRequestError,
    );
  });
});
