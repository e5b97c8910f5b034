import { makeVideoProbe } from '../../../shared/adapters/video-probe/video-probe.js';
import type { WorkspacePolicies } from '../../../shared/domain/policies.js';
import type { Principal } from '../../../shared/domain/tenancy.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { CreatePostInput } from '../../../shared/services/posts/create-post.js';
import { anAccount, aPrincipal, aTenant, aWorkspace } from './builders.js';
import { InMemoryMediaBytes } from './in-memory-media-bytes.js';
import { InMemoryMediaStore } from './in-memory-media-store.js';
import { InMemoryObjectStorage } from './in-memory-object-storage.js';
import { InMemoryPostStore } from './in-memory-post-store.js';
import { InMemoryTenancyStore } from './in-memory-tenancy-store.js';

/** The instant every world starts at; tests move the clock from here. */
export const NOW = Date.parse('2030-01-01T12:00:00.000Z');

export const TENANT_ID = 'ten_01JD0000000000000000000000';
export const WORKSPACE_ID = 'wks_01JD0000000000000000000000';
/** The connected twitter account every world has. */
export const ACCOUNT_ID = 'acc_01JD0000000000000000000000';

/** `ms` after the world's start, as ISO 8601. */
export function at(ms: number): string {
  return new Date(NOW + ms).toISOString();
}

export type ServiceWorld = Awaited<ReturnType<typeof aServiceWorld>>;

/**
 * The ports a use case runs on, in memory and wired together as in DynamoDB (the post store reads
 * workspaces, accounts and media from the same stores), with a fixed clock at NOW: a tenant, its
 * workspace (with `policies`, if given) and a connected twitter account, and the principal acting.
 */
export async function aServiceWorld(options: { policies?: WorkspacePolicies } = {}) {
  const clock = fixedClock(NOW);
  const tenancy = new InMemoryTenancyStore();
  const media = new InMemoryMediaStore();
  const posts = new InMemoryPostStore({ tenancy, media });
  const storage = new InMemoryObjectStorage(clock);
  await tenancy.putTenant(aTenant({ tenantId: TENANT_ID }));
  await tenancy.putWorkspace(
    aWorkspace({
      tenantId: TENANT_ID,
      workspaceId: WORKSPACE_ID,
      ...(options.policies && { policies: options.policies }),
    }),
  );
  await tenancy.putAccount(
    anAccount({ tenantId: TENANT_ID, workspaceId: WORKSPACE_ID, accountId: ACCOUNT_ID }),
  );
  const principal: Principal = aPrincipal({
    tenant: { tenantId: TENANT_ID },
    agent: { tenantId: TENANT_ID, scope: { kind: 'selected', workspaceIds: [WORKSPACE_ID] } },
  });
  const videoProbe = makeVideoProbe(new InMemoryMediaBytes(storage));
  return { clock, tenancy, media, posts, storage, videoProbe, principal };
}

/** A create's input for the world's short-message account, ready to publish. */
export function aTweet(overrides: Partial<CreatePostInput> = {}): CreatePostInput {
  return {
    platform: 'twitter',
    accountId: ACCOUNT_ID,
    status: 'publish',
    postType: 'text',
    content: 'Hello from the unit tests',
    ...overrides,
  };
}
