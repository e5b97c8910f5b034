import { type Media, mediaObjectKey } from '../../../shared/domain/media.js';
import { PERMISSIONS } from '../../../shared/domain/permissions.js';
import type { Account, Agent, Principal, Tenant, Workspace } from '../../../shared/domain/tenancy.js';

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

export function aWorkspace(overrides: Partial<Workspace> = {}): Workspace {
  return {
    workspaceId: 'wks_01JD0000000000000000000000',
    tenantId: 'ten_01JD0000000000000000000000',
    name: 'Main',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: 'acc_01JD0000000000000000000000',
    tenantId: 'ten_01JD0000000000000000000000',
    workspaceId: 'wks_01JD0000000000000000000000',
    platform: 'twitter',
    displayName: 'Acme',
    handle: '@acme',
    status: 'connected',
    sandbox: true,
    connectedAt: '2025-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** An uploaded PNG of the workspace above. */
export function aMedia(overrides: Partial<Media> = {}): Media {
  const ids = {
    mediaId: 'med_01JD0000000000000000000000',
    tenantId: 'ten_01JD0000000000000000000000',
    workspaceId: 'wks_01JD0000000000000000000000',
    ...overrides,
  };
  return {
    filename: 'photo.png',
    mimeType: 'image/png',
    sizeBytes: 1024,
    status: 'uploaded',
    objectKey: mediaObjectKey(ids.tenantId, ids.workspaceId, ids.mediaId),
    source: 'upload',
    createdAt: '2025-01-01T00:00:00.000Z',
    uploadedAt: '2025-01-01T00:00:01.000Z',
    ...overrides,
    ...ids,
  };
}
