import { PERMISSIONS } from '../../../shared/domain/permissions.js';
import type { Agent, Principal, Tenant } from '../../../shared/domain/tenancy.js';

/** Plain domain values with sensible defaults; a test overrides only what it is about. */
export function aTenant(overrides: Partial<Tenant> = {}): Tenant {
  return {
    tenantId: 'ten_01JD0000000000000000000000',
    name: 'Acme',
    planTier: 'free',
    planStatus: 'active',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function anAgent(overrides: Partial<Agent> = {}): Agent {
  return {
    agentId: 'agt_01JD0000000000000000000000',
    tenantId: 'ten_01JD0000000000000000000000',
    name: 'Scheduler bot',
    scope: { kind: 'selected', workspaceIds: ['wks_A'] },
    permissions: [...PERMISSIONS],
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function aPrincipal(overrides: { tenant?: Partial<Tenant>; agent?: Partial<Agent> } = {}): Principal {
  return {
    tenant: aTenant(overrides.tenant),
    agent: anAgent(overrides.agent),
    keyId: 'key_01JD0000000000000000000000',
  };
}
