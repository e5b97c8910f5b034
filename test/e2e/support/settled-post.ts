import { expect } from 'vitest';
import type { Post } from '../../../shared/domain/posts.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { eventually } from '../../support/eventually.js';
import { postsClient } from '../../support/post-fixtures.js';
import type { TestHost } from '../../support/test-host.js';

/**
 * Creates a post to publish now on `platform` for the account, expects the 201, and waits (up to
 * 30 s) until the worker has settled it: published or failed.
 */
export async function publishUntilSettled(
  host: TestHost,
  tenant: BootstrapResult,
  post: { platform: string; accountId: string } & Record<string, unknown>,
  what: string,
): Promise<Post> {
  const created = await postsClient(host, tenant).create({ status: 'publish', ...post } as never);
  expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return eventually(
    async () => {
      const settled = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
      return settled.status === 'published' || settled.status === 'failed' ? settled : undefined;
    },
    { timeoutMs: 30_000, what },
  );
}
