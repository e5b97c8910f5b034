import { describe, expect, it } from 'vitest';
import {
  assertPermission,
  assertPlanActive,
  assertScopeCovers,
  scopeCovers,
  soleWorkspace,
} from '../../../shared/domain/access.js';
import {
  NotFoundError,
  PermissionDeniedError,
  PlanInactiveError,
  toEnvelope,
  WorkspaceRequiredError,
} from '../../../shared/domain/errors.js';
import { anAgent, aPrincipal } from '../support/builders.js';
import { thrownBy } from '../support/thrown.js';

describe('assertPlanActive', () => {
  it('lets a tenant with an active plan through', () => {
    expect(() => assertPlanActive(aPrincipal({ tenant: { planStatus: 'active' } }))).not.toThrow();
  });

  it('throws plan_inactive for a tenant whose plan is inactive', () => {
    expect(() => assertPlanActive(aPrincipal({ tenant: { planStatus: 'inactive' } }))).toThrow(
      PlanInactiveError,
    );
  });
});

describe('assertPermission', () => {
  it('lets an agent with the permission through', () => {
    // Prepare
    const agent = anAgent({ permissions: ['posts:read', 'posts:write'] });

    // Act / Assess
    expect(() => assertPermission(agent, 'posts:write')).not.toThrow();
  });

  it('throws permission_denied naming the missing permission', () => {
    // Prepare
    const agent = anAgent({ permissions: ['posts:read'] });

    // Act
    const thrown = thrownBy(() => assertPermission(agent, 'webhooks:manage'));

    // Assess
    expect(thrown).toBeInstanceOf(PermissionDeniedError);
    expect(toEnvelope(thrown as PermissionDeniedError).required).toBe('webhooks:manage');
  });

  it('denies everything to an agent with no permissions', () => {
    expect(() => assertPermission(anAgent({ permissions: [] }), 'posts:read')).toThrow(PermissionDeniedError);
  });
});

describe('scopeCovers', () => {
  it('covers a workspace named in a selected scope', () => {
    expect(
      scopeCovers(anAgent({ scope: { kind: 'selected', workspaceIds: ['wks_A', 'wks_B'] } }), 'wks_B'),
    ).toBe(true);
  });

  it('does not cover a workspace missing from a selected scope', () => {
    expect(scopeCovers(anAgent({ scope: { kind: 'selected', workspaceIds: ['wks_A'] } }), 'wks_B')).toBe(
      false,
    );
  });

  it('covers any workspace for an `all` scope', () => {
    expect(scopeCovers(anAgent({ scope: { kind: 'all' } }), 'wks_created_later')).toBe(true);
  });
});

describe('assertScopeCovers', () => {
  it('answers not_found (never 403) for a workspace outside the scope, so its existence does not leak', () => {
    // Prepare
    const agent = anAgent({ scope: { kind: 'selected', workspaceIds: ['wks_A'] } });

    // Act / Assess
    expect(() => assertScopeCovers(agent, 'wks_B')).toThrow(NotFoundError);
  });

  it('lets a covered workspace through', () => {
    expect(() =>
      assertScopeCovers(anAgent({ scope: { kind: 'selected', workspaceIds: ['wks_A'] } }), 'wks_A'),
    ).not.toThrow();
  });
});

describe('soleWorkspace', () => {
  it('answers not_found when the key can access no workspace', () => {
    expect(() => soleWorkspace([])).toThrow(NotFoundError);
  });

  it('returns the only workspace', () => {
    expect(soleWorkspace(['wks_A'])).toBe('wks_A');
  });

  it('throws workspace_required listing every choice when there are several', () => {
    // Act
    const thrown = thrownBy(() => soleWorkspace(['wks_A', 'wks_B', 'wks_C']));

    // Assess
    expect(thrown).toBeInstanceOf(WorkspaceRequiredError);
    expect(toEnvelope(thrown as WorkspaceRequiredError)).toMatchObject({
      error: 'workspace_required',
      available_workspaces: ['wks_A', 'wks_B', 'wks_C'],
    });
  });

  it('throws workspace_required already with two workspaces', () => {
    expect(() => soleWorkspace(['wks_A', 'wks_B'])).toThrow(WorkspaceRequiredError);
  });
});
