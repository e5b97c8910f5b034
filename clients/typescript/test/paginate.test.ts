import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../../../test/support/test-host.js';
import {
  ApiError,
  createClient,
  type Post,
  paginate,
  paginatePages,
  type SocialPublishingClient,
} from '../src/index.js';

/** paginate() and paginatePages() against the local host's real cursors. */
describe('paginate', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let client: SocialPublishingClient;
  const draftIds: string[] = [];

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Client pagination' });
    client = createClient({ baseUrl: host.baseUrl, apiKey: tenant.apiKey });
    for (let n = 0; n < 5; n += 1) {
      const created = await client.createPost(tenant.workspaceId, {
        platform: 'linkedin',
        accountId: tenant.accounts.linkedin,
        status: 'draft',
        postType: 'text',
        content: `Draft ${n}`,
      });
      draftIds.push(created.id);
    }
  });
  afterAll(async () => {
    await host.stop();
  });

  const draftsPage = (cursor: string | undefined, limit = 2) =>
    client.api.GET('/v1/workspaces/{workspace_id}/posts', {
      params: { path: { workspace_id: tenant.workspaceId }, query: { status: 'draft', limit, cursor } },
    });

  it('yields every item of every page, following nextCursor until it is null', async () => {
    const cursors: (string | undefined)[] = [];
    const posts: Post[] = [];
    for await (const post of paginate((cursor) => {
      cursors.push(cursor);
      return draftsPage(cursor);
    })) {
      expectTypeOf(post).toEqualTypeOf<Post>();
      posts.push(post);
    }

    expect(posts.map((post) => post.id).sort()).toEqual([...draftIds].sort());
    // Five drafts, two a page: three reads, the first without a cursor, each other with the last nextCursor.
    expect(cursors).toHaveLength(3);
    expect(cursors[0]).toBeUndefined();
    expect(cursors.slice(1).every((cursor) => typeof cursor === 'string' && cursor.length > 0)).toBe(true);
  });

  it('answers the pages themselves, the last one with nextCursor null', async () => {
    const pages = [];
    for await (const page of paginatePages((cursor) => draftsPage(cursor))) pages.push(page);

    // A page may hold fewer than limit items (the interface says so): count the items, not the pages.
    expect(pages.flatMap((page) => page.data)).toHaveLength(5);
    expect(pages.every((page) => page.data.length <= 2)).toBe(true);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    expect(pages.slice(0, -1).every((page) => typeof page.nextCursor === 'string')).toBe(true);
  });

  it('reads no further page once the loop breaks', async () => {
    let reads = 0;
    for await (const post of paginate((cursor) => {
      reads += 1;
      return draftsPage(cursor);
    })) {
      expect(post.id).toMatch(/^pst_/);
      break;
    }
    expect(reads).toBe(1);
  });

  it('throws the ApiError of a failed page', async () => {
    const walk = async () => {
      for await (const _ of paginate(() => draftsPage('not-a-cursor'))) {
        // no item: the first page fails
      }
    };
    const error = await walk().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
  });

  it('takes a fetcher that answers the page itself (a wrapper that has unwrapped already)', async () => {
    const pages = [
      { data: [1, 2], nextCursor: 'b' },
      { data: [], nextCursor: 'c' },
      { data: [3], nextCursor: null },
    ];
    const seen: (string | undefined)[] = [];
    const items: number[] = [];
    for await (const item of paginate(async (cursor) => {
      seen.push(cursor);
      return pages[seen.length - 1] ?? { data: [], nextCursor: null };
    }))
      items.push(item);

    expect(items).toEqual([1, 2, 3]);
    expect(seen).toEqual([undefined, 'b', 'c']);
  });
});
