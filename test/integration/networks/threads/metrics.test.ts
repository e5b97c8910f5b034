import { afterEach, describe, expect, it } from 'vitest';
import type { MetricsTarget } from '../../../../shared/ports/connector.js';
import {
  anAccount,
  aRequest,
  published,
  startWorld,
  type ThreadsWorld,
  USER,
  userToken,
} from './threads-world.js';

describe('Threads metrics against the fake', () => {
  let world: ThreadsWorld;
  afterEach(() => world.stop());

  const target = (postId: string, platformPostId: string): MetricsTarget => ({
    postId,
    platformPostId,
    publishedAt: new Date().toISOString(),
  });

  it("reads each post's insights one request each (replies → comments, reposts → shares) and a deleted post as notFound", async () => {
    let now = Date.now();
    world = await startWorld({ now: () => now });
    const token = userToken(world);
    const post = published(
      await world.network.connector.publish(aRequest(world, token, { postType: 'text', content: 'Counted' })),
    );
    world.fake.control.addPublished(USER.userId, [now], { text: 'A reply', repliedTo: post.platformPostId });
    now += 30 * 60_000;

    const answer = await world.network.connector.readPostMetrics?.({
      account: anAccount(),
      credentials: { accessToken: token },
      posts: [target('pst_a', post.platformPostId), target('pst_gone', '18999999999999999')],
      signal: AbortSignal.timeout(5000),
    });

    expect(answer).toEqual({
      kind: 'metrics',
      byPost: { pst_a: { views: 301, likes: 30, comments: 1, shares: 0, quotes: 0 } },
      notFound: ['pst_gone'],
    });
    const asked = world.fake.control.requests().filter((r) => r.endpoint === 'media.insights');
    expect(asked.map((r) => r.params.metric)).toEqual([
      'views,likes,replies,reposts,quotes',
      'views,likes,replies,reposts,quotes',
    ]);
  });

  it('a token without threads_manage_insights is missing_scopes; a refused token auth_failed; the account read gives followers', async () => {
    world = await startWorld();
    const without = userToken(world, { scopes: ['threads_basic', 'threads_content_publish'] });
    const read = (accessToken: string) =>
      world.network.connector.readPostMetrics?.({
        account: anAccount(),
        credentials: { accessToken },
        posts: [target('pst_a', '18000000000000001')],
        signal: AbortSignal.timeout(5000),
      });
    expect(await read(without)).toMatchObject({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['threads_manage_insights'],
    });
    expect(await read('not-a-token')).toMatchObject({ kind: 'failed', failure: 'auth_failed' });

    const account = await world.network.connector.readAccountMetrics?.({
      account: anAccount(),
      credentials: { accessToken: userToken(world) },
      signal: AbortSignal.timeout(5000),
    });
    expect(account).toEqual({ kind: 'metrics', metrics: { followers: 1000 } });
  });
});
