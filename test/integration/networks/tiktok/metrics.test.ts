import { afterEach, describe, expect, it } from 'vitest';
import type { Connector, MetricsTarget, PostMetricsAnswer } from '../../../../shared/ports/connector.js';
import {
  anAccount,
  aPost,
  aRequest,
  publishUntilSettled,
  startWorld,
  type TikTokWorld,
} from './tiktok-world.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const ALL_PER_MINUTE = { creator_info: 20, init: 6, status: 30 };

/**
 * The metrics readers against TikTok's fake over loopback HTTP: video/query (video.list, at most 20
 * ids a request) for a post's numbers, user/info (user.info.stats) for the account's, and each
 * documented failure as the contract's kind.
 */
describe('TikTok metrics against the fake', () => {
  let world: TikTokWorld;
  let now = T0;
  afterEach(() => world.stop());

  const start = async () => {
    now = T0;
    world = await startWorld({ settings: { now: () => now } });
    return world;
  };
  const connector = (): Required<Pick<Connector, 'readPostMetrics' | 'readAccountMetrics'>> => {
    const { readPostMetrics, readAccountMetrics } = world.network.connector;
    if (!readPostMetrics || !readAccountMetrics) throw new Error('TikTok reads no metrics');
    return { readPostMetrics, readAccountMetrics };
  };
  const target = (platformPostId: string, index = 1): MetricsTarget => ({
    postId: `pst_${index}`,
    platformPostId,
    publishedAt: new Date(T0).toISOString(),
  });
  const readPosts = (
    accessToken: string,
    posts: readonly MetricsTarget[],
    signal = AbortSignal.timeout(5_000),
  ): Promise<PostMetricsAnswer> =>
    connector().readPostMetrics({ account: anAccount(), credentials: { accessToken }, posts, signal });

  it('reads views, likes, comments and shares under our names, and they grow with time', async () => {
    await start();
    const videoId = world.fake.control.addVideo({ createdAt: T0 });
    // A real id has 19 digits: above 2^53, it must reach TikTok and come back unchanged.
    expect(Number.isSafeInteger(Number(videoId))).toBe(false);
    const token = world.fake.control.issueToken();
    now = T0 + HOUR;
    expect(await readPosts(token, [target(videoId)])).toEqual({
      kind: 'metrics',
      byPost: { pst_1: { views: 600, likes: 75, comments: 15, shares: 6 } },
      notFound: [],
    });
    now = T0 + 24 * HOUR;
    // A token lives 2 hours: the worker refreshes it before a collection; a new one here.
    const later = await readPosts(world.fake.control.issueToken(), [target(videoId)]);
    expect(later).toEqual({
      kind: 'metrics',
      byPost: { pst_1: { views: 14_400, likes: 1_800, comments: 360, shares: 144 } },
      notFound: [],
    });
    expect(world.fake.control.videoQueries()).toEqual([[videoId], [videoId]]);
  });

  it('reads a post the connector itself published, by the int64 id TikTok named it with', async () => {
    await start();
    const token = world.fake.control.issueToken();
    const { outcome } = await publishUntilSettled(
      world,
      aRequest(world, token, { post: aPost({ postType: 'carousel' }), media: photoMedia() }),
    );
    if (outcome.kind !== 'published') throw new Error(`not published: ${outcome.kind}`);
    now = T0 + 6 * HOUR;
    const answer = await readPosts(world.fake.control.issueToken(), [target(outcome.platformPostId)]);
    expect(answer).toEqual({
      kind: 'metrics',
      byPost: { pst_1: { views: 3_600, likes: 450, comments: 90, shares: 36 } },
      notFound: [],
    });
  });

  it('splits 45 posts into requests of at most 20 ids, and reads every one', async () => {
    await start();
    const ids = Array.from({ length: 45 }, () => world.fake.control.addVideo({ createdAt: T0 }));
    now = T0 + HOUR;
    const answer = await readPosts(
      world.fake.control.issueToken(),
      ids.map((id, index) => target(id, index)),
    );
    const queries = world.fake.control.videoQueries();
    expect(queries.map((batch) => batch.length)).toEqual([20, 20, 5]);
    expect(queries.flat()).toEqual(ids);
    if (answer.kind !== 'metrics') throw new Error(answer.message);
    expect(Object.keys(answer.byPost)).toHaveLength(45);
    expect(answer.byPost.pst_44).toEqual({ views: 600, likes: 75, comments: 15, shares: 6 });
  });

  it('puts a post TikTok no longer has in notFound, beside the numbers of the others', async () => {
    await start();
    const kept = world.fake.control.addVideo({ createdAt: T0 });
    const deleted = world.fake.control.addVideo({ createdAt: T0 });
    world.fake.control.deleteVideo(deleted);
    now = T0 + HOUR;
    expect(await readPosts(world.fake.control.issueToken(), [target(kept, 1), target(deleted, 2)])).toEqual({
      kind: 'metrics',
      byPost: { pst_1: { views: 600, likes: 75, comments: 15, shares: 6 } },
      notFound: ['pst_2'],
    });
  });

  it('answers missing_scopes naming video.list for a token granted without it', async () => {
    await start();
    const videoId = world.fake.control.addVideo();
    const token = world.fake.control.issueToken(undefined, ['user.info.basic', 'video.publish']);
    const answer = await readPosts(token, [target(videoId)]);
    expect(answer).toMatchObject({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['video.list'],
    });
  });

  it('answers rate_limited with TikTok’s one-minute window once its per-minute limit is spent', async () => {
    await start();
    world.fake.control.updateSettings({ perMinute: { ...ALL_PER_MINUTE, video_query: 1 } });
    const videoId = world.fake.control.addVideo();
    const token = world.fake.control.issueToken();
    expect((await readPosts(token, [target(videoId)])).kind).toBe('metrics');
    expect(await readPosts(token, [target(videoId)])).toMatchObject({
      kind: 'failed',
      failure: 'rate_limited',
      retryAfterSeconds: 60,
    });
  });

  it('answers auth_failed for an expired token, in our words and not TikTok’s', async () => {
    await start();
    const videoId = world.fake.control.addVideo();
    const token = world.fake.control.issueToken();
    world.fake.control.expireAccessToken(token);
    const answer = await readPosts(token, [target(videoId)]);
    expect(answer).toMatchObject({ kind: 'failed', failure: 'auth_failed' });
    if (answer.kind !== 'failed') throw new Error('expected a failure');
    expect(answer.message).not.toMatch(/invalid or not found in the request/);
  });

  it('answers unavailable when TikTok times out, cuts the connection or fails with a 5xx', async () => {
    await start();
    const videoId = world.fake.control.addVideo();
    const token = world.fake.control.issueToken();
    world.fake.control.failNext('video_query', { kind: 'delayAfter', ms: 1_500 });
    expect(await readPosts(token, [target(videoId)], AbortSignal.timeout(300))).toMatchObject({
      kind: 'failed',
      failure: 'unavailable',
    });
    world.fake.control.failNext('video_query', { kind: 'reset' });
    expect(await readPosts(token, [target(videoId)])).toMatchObject({
      kind: 'failed',
      failure: 'unavailable',
    });
    world.fake.control.failNext('video_query', { kind: 'error', status: 500, code: 'internal_error' });
    expect(await readPosts(token, [target(videoId)])).toMatchObject({
      kind: 'failed',
      failure: 'unavailable',
    });
  });

  it('sends nothing once the signal is aborted', async () => {
    await start();
    const videoId = world.fake.control.addVideo();
    const aborted = AbortSignal.abort();
    expect(await readPosts(world.fake.control.issueToken(), [target(videoId)], aborted)).toMatchObject({
      kind: 'failed',
      failure: 'unavailable',
    });
    expect(world.fake.control.videoQueries()).toEqual([]);
  });

  it('reads the account’s followers, following, likes and videos in one user/info call', async () => {
    await start();
    world.fake.control.addVideo({ createdAt: T0 });
    world.fake.control.addVideo({ createdAt: T0 });
    now = T0 + HOUR;
    const answer = await connector().readAccountMetrics({
      account: anAccount(),
      credentials: { accessToken: world.fake.control.issueToken() },
      signal: AbortSignal.timeout(5_000),
    });
    expect(answer).toEqual({
      kind: 'metrics',
      metrics: { followers: 1_060, following: 180, likes: 150, posts: 2 },
    });
    expect(world.fake.control.seen().filter((request) => request.endpoint === 'user_info')).toHaveLength(1);
  });

  it('the fake refuses what TikTok refuses: over 20 ids, ids as JSON numbers, a field the Video Object lacks', async () => {
    await start();
    const token = world.fake.control.issueToken();
    const query = async (fields: string, body: string) => {
      const response = await fetch(`${world.fake.apiUrl}/v2/video/query/?fields=${fields}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body,
      });
      return {
        status: response.status,
        code: ((await response.json()) as { error: { code: string } }).error.code,
      };
    };
    const ids = (count: number) => Array.from({ length: count }, (_, i) => `73000000000000000${10 + i}`);
    const refused = { status: 400, code: 'invalid_params' };
    expect(await query('id,view_count', JSON.stringify({ filters: { video_ids: ids(20) } }))).toEqual({
      status: 200,
      code: 'ok',
    });
    expect(await query('id,view_count', JSON.stringify({ filters: { video_ids: ids(21) } }))).toEqual(
      refused,
    );
    expect(await query('id,view_count', '{"filters":{"video_ids":[7300000000000000010]}}')).toEqual(refused);
    expect(await query('id,views', JSON.stringify({ filters: { video_ids: ids(1) } }))).toEqual(refused);
  });

  it('answers missing_scopes naming user.info.stats for the account read of a token without it', async () => {
    await start();
    const answer = await connector().readAccountMetrics({
      account: anAccount(),
      credentials: {
        accessToken: world.fake.control.issueToken(undefined, [
          'user.info.basic',
          'video.publish',
          'video.list',
        ]),
      },
      signal: AbortSignal.timeout(5_000),
    });
    expect(answer).toMatchObject({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['user.info.stats'],
    });
  });
});

/** Photos go by URL (TikTok pulls them), so a published post needs no upload here. */
function photoMedia() {
  return [{ kind: 'image' as const, url: 'https://media.example.com/p1.jpg' }];
}
