import { describe, expect, it } from 'vitest';
import { planAgent } from '../../../shared/domain/agent-rules.js';
import { InvalidRequestError, PermissionDeniedError, toEnvelope } from '../../../shared/domain/errors.js';
import { PERMISSIONS } from '../../../shared/domain/permissions.js';
import type { Actor } from '../../../shared/domain/tenancy.js';
import { thrownBy } from '../support/thrown.js';

const superAdmin: Actor = { role: 'super_admin' };
const owner: Actor = { role: 'owner' };
const adminOf = (workspaceId: string): Actor => ({ role: 'workspace_admin', workspaceId });

describe('planAgent from a workspace', () => {
  it("locks an agent made by the workspace's admin to that workspace with a selected scope", () => {
    // Act
    const plan = planAgent(adminOf('wks_A'), { name: 'bot', fromWorkspaceId: 'wks_A' });

    // Assess
    expect(plan).toEqual({
      name: 'bot',
      scope: { kind: 'selected', workspaceIds: ['wks_A'] },
      permissions: [...PERMISSIONS],
      lockedWorkspaceId: 'wks_A',
    });
  });

  it.each([
    ['an owner', owner],
    ['a super-admin', superAdmin],
  ])('lets %s create an agent locked to any workspace', (_label, actor) => {
    // Act
    const plan = planAgent(actor, { name: 'bot', fromWorkspaceId: 'wks_Z' });

    // Assess
    expect(plan.lockedWorkspaceId).toBe('wks_Z');
    expect(plan.scope).toEqual({ kind: 'selected', workspaceIds: ['wks_Z'] });
  });

  it('denies the admin of another workspace', () => {
    // Act
    const thrown = thrownBy(() => planAgent(adminOf('wks_A'), { name: 'bot', fromWorkspaceId: 'wks_B' }));

    // Assess
    expect(thrown).toBeInstanceOf(PermissionDeniedError);
    expect(toEnvelope(thrown as PermissionDeniedError).required).toBe('workspace:admin');
  });

  it('rejects a scope given together with a workspace', () => {
    expect(() => planAgent(owner, { name: 'bot', fromWorkspaceId: 'wks_A', scope: { kind: 'all' } })).toThrow(
      InvalidRequestError,
    );
  });

  it('keeps the permissions that were asked for', () => {
    // Act
    const plan = planAgent(adminOf('wks_A'), {
      name: 'reader',
      fromWorkspaceId: 'wks_A',
      permissions: ['posts:read'],
    });

    // Assess
    expect(plan.permissions).toEqual(['posts:read']);
  });
});

describe('planAgent at tenant level', () => {
  it('needs a scope', () => {
    expect(() => planAgent(owner, { name: 'bot' })).toThrow(InvalidRequestError);
  });

  it('is denied to a workspace admin, even with a selected scope of their own workspace', () => {
    // Act
    const thrown = thrownBy(() =>
      planAgent(adminOf('wks_A'), { name: 'bot', scope: { kind: 'selected', workspaceIds: ['wks_A'] } }),
    );

    // Assess
    expect(thrown).toBeInstanceOf(PermissionDeniedError);
    expect(toEnvelope(thrown as PermissionDeniedError).required).toBe('tenant:admin');
  });

  it('lets only a super-admin grant the `all` scope', () => {
    // Act
    const plan = planAgent(superAdmin, { name: 'everything', scope: { kind: 'all' } });
    const thrown = thrownBy(() => planAgent(owner, { name: 'everything', scope: { kind: 'all' } }));

    // Assess
    expect(plan.scope).toEqual({ kind: 'all' });
    expect(plan.lockedWorkspaceId).toBeUndefined();
    expect(thrown).toBeInstanceOf(PermissionDeniedError);
    expect(toEnvelope(thrown as PermissionDeniedError).required).toBe('tenant:super_admin');
  });

  it('denies `all` to a workspace admin', () => {
    expect(() => planAgent(adminOf('wks_A'), { name: 'x', scope: { kind: 'all' } })).toThrow(
      PermissionDeniedError,
    );
  });

  it.each([
    ['an owner', owner],
    ['a super-admin', superAdmin],
  ])('lets %s create a selected scope over several workspaces, not locked', (_label, actor) => {
    // Act
    const plan = planAgent(actor, {
      name: 'pair',
      scope: { kind: 'selected', workspaceIds: ['wks_A', 'wks_B'] },
    });

    // Assess
    expect(plan).toEqual({
      name: 'pair',
      scope: { kind: 'selected', workspaceIds: ['wks_A', 'wks_B'] },
      permissions: [...PERMISSIONS],
    });
  });

  it('rejects an empty selected scope', () => {
    expect(() => planAgent(owner, { name: 'none', scope: { kind: 'selected', workspaceIds: [] } })).toThrow(
      InvalidRequestError,
    );
  });

  it('grants every permission when none are asked for, and a copy that cannot change the list', () => {
    // Act
    const plan = planAgent(superAdmin, { name: 'bot', scope: { kind: 'all' } });
    plan.permissions.pop();

    // Assess
    expect(planAgent(superAdmin, { name: 'bot', scope: { kind: 'all' } }).permissions).toEqual([
      'posts:read',
      'posts:write',
      'media:write',
      'webhooks:manage',
      'accounts:read',
      'accounts:connect',
      'approvals:decide',
    ]);
  });
});
