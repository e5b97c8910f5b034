import { afterEach, describe, expect, it } from 'vitest';
import {
  FAKE_VIEWS_PER_HOUR,
  googleErrors,
  VIDEOS_LIST_MAX_IDS,
} from '../../../../infra/fake-networks/youtube/index.js';
import { YOUTUBE_METRICS_SCOPES, YOUTUBE_UPLOAD_SCOPE } from '../../../../shared/networks/youtube/scopes.js';
import type { MetricsTarget, PostMetricsRequest } from '../../../../shared/ports/connector.js';
import { anAccount, CHANNEL, channelToken, startWorld, type YouTubeWorld } from './youtube-world.js';

const PUBLISHED_AT = '2026-05-10T09:00:00.000Z';
const HOUR = 3_600_000;

/** The fake's and the connector's clock, moved by the tests. */
function clockAt(iso: string) {
  const clock = { ms: Date.parse(iso), now: () => clock.ms };
  return clock;
}

describe('YouTube metrics against the fake', () => {
  let world: YouTubeWorld;
  let clock: ReturnType<typeof clockAt>;
  afterEach(() => world.stop());

  async function start(options: { batchSize?: number } = {}) {
    clock = clockAt(PUBLISHED_AT);
    world = await startWorld(
      { now: clock.now },
      { now: clock.now, ...(options.batchSize && { metricsBatchSize: options.batchSize }) },
    );
  }

  function publishedVideos(count: number): MetricsTarget[] {
    return Array.from({ length: count }, (_, index) => ({
      postId: `pst_${index + 1}`,
      platformPostId: world.fake.control.addVideo({ channelId: CHANNEL.id, uploadedAt: PUBLISHED_AT }),
      publishedAt: PUBLISHED_AT,
    }));
  }

  function request(
    accessToken: string,
    posts: readonly MetricsTarget[],
    signal?: AbortSignal,
  ): PostMetricsRequest {
    return {
      account: anAccount(),
      credentials: { accessToken },
      posts,
      signal: signal ?? AbortSignal.timeout(10_000),
    };
  }

  const read = (accessToken: string, posts: readonly MetricsTarget[], signal?: AbortSignal) => {
    const readPostMetrics = world.network.connector.readPostMetrics;
    if (!readPostMetrics) throw new Error('The YouTube connector reads no metrics.');
    return readPostMetrics(request(accessToken, posts, signal));
  };

  const statisticsReads = () =>
    world.fake.control.requests().filter((seen) => seen.endpoint === 'videos.list');

  it('reads views, likes and comments from part=statistics, growing with the clock, in our vocabulary', async () => {
    await start();
    const posts = publishedVideos(2);
    clock.ms += 2 * HOUR;

    const first = await read(channelToken(world), posts);
    clock.ms += 3 * HOUR;
    const later = await read(channelToken(world), posts);

    const views = 2 * FAKE_VIEWS_PER_HOUR;
    expect(first).toEqual({
      kind: 'metrics',
      byPost: {
        pst_1: { views, likes: views / 20, comments: Math.floor(views / 50) },
        pst_2: { views, likes: views / 20, comments: Math.floor(views / 50) },
      },
      notFound: [],
    });
    expect(later.kind === 'metrics' && later.byPost.pst_1?.views).toBe(5 * FAKE_VIEWS_PER_HOUR);
    expect(statisticsReads().map((seen) => seen.query.part)).toEqual(['statistics', 'statistics']);
    expect(statisticsReads()[0]?.query.id).toBe(posts.map((post) => post.platformPostId).join(','));
  });

  it('leaves out a count the owner hid rather than reporting it as 0', async () => {
    await start();
    const videoId = world.fake.control.addVideo({
      channelId: CHANNEL.id,
      uploadedAt: PUBLISHED_AT,
      likesHidden: true,
      commentsDisabled: true,
    });
    clock.ms += HOUR;

    const answer = await read(channelToken(world), [
      { postId: 'pst_1', platformPostId: videoId, publishedAt: PUBLISHED_AT },
    ]);

    expect(answer).toEqual({
      kind: 'metrics',
      byPost: { pst_1: { views: FAKE_VIEWS_PER_HOUR } },
      notFound: [],
    });
  });

  it(`splits more than ${VIDEOS_LIST_MAX_IDS} posts into reads of at most ${VIDEOS_LIST_MAX_IDS} ids, one unit each`, async () => {
    await start();
    const posts = publishedVideos(VIDEOS_LIST_MAX_IDS + 13);
    clock.ms += HOUR;
    const token = channelToken(world);
    const unitsBefore = world.fake.control.quota().used;

    const answer = await read(token, posts);

    expect(answer.kind === 'metrics' && Object.keys(answer.byPost)).toHaveLength(VIDEOS_LIST_MAX_IDS + 13);
    const idCounts = statisticsReads().map((seen) => (seen.query.id ?? '').split(',').length);
    expect(idCounts).toEqual([VIDEOS_LIST_MAX_IDS, 13]);
    expect(world.fake.control.quota().used - unitsBefore).toBe(2);
  });

  it('keeps to a smaller batch size when tuned to one', async () => {
    await start({ batchSize: 2 });
    const posts = publishedVideos(5);

    await read(channelToken(world), posts);

    expect(statisticsReads().map((seen) => (seen.query.id ?? '').split(',').length)).toEqual([2, 2, 1]);
  });

  it('names a video deleted at YouTube in notFound and still reads the others', async () => {
    await start();
    const posts = publishedVideos(3);
    world.fake.control.deleteVideo(posts[1]?.platformPostId ?? '');
    clock.ms += HOUR;

    const answer = await read(channelToken(world), posts);

    expect(answer).toMatchObject({ kind: 'metrics', notFound: ['pst_2'] });
    expect(answer.kind === 'metrics' && Object.keys(answer.byPost).sort()).toEqual(['pst_1', 'pst_3']);
  });

  it('answers missing_scopes with the read-only scope when the token has only the upload scope', async () => {
    await start();
    const posts = publishedVideos(1);

    const answer = await read(channelToken(world, [YOUTUBE_UPLOAD_SCOPE]), posts);

    expect(answer).toEqual({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: [...YOUTUBE_METRICS_SCOPES],
      message: 'The YouTube account did not grant the permission the video statistics need.',
    });
  });

  it("answers Google's throttling as rate_limited with the wait it named, and a minute when it named none", async () => {
    await start();
    const posts = publishedVideos(1);
    world.fake.control.failNext('videos.list', { kind: 'reply', reply: googleErrors.rateLimited(120) });
    world.fake.control.failNext('videos.list', { kind: 'reply', reply: googleErrors.rateLimited() });

    const named = await read(channelToken(world), posts);
    const unnamed = await read(channelToken(world), posts);

    expect(named).toMatchObject({ kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 120 });
    expect(unnamed).toMatchObject({ kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 60 });
    expect(JSON.stringify(named)).not.toContain('rate limiting');
  });

  it("answers the project's used-up daily units as rate_limited until the quota's reset", async () => {
    await start();
    const posts = publishedVideos(1);
    world.fake.control.setQuotaUsed(world.fake.control.quota().limit);

    const answer = await read(channelToken(world), posts);

    expect(answer).toMatchObject({ kind: 'failed', failure: 'rate_limited' });
    const wait = answer.kind === 'failed' ? (answer.retryAfterSeconds ?? 0) : 0;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
  });

  it('answers an expired token as auth_failed', async () => {
    await start();
    const posts = publishedVideos(1);
    const token = channelToken(world);
    world.fake.control.expireAccessToken(token);

    const answer = await read(token, posts);

    expect(answer).toEqual({
      kind: 'failed',
      failure: 'auth_failed',
      message: "YouTube refused the account's access token at the video statistics read.",
    });
  });

  it('answers a read that times out, and a server error, as unavailable', async () => {
    await start();
    const posts = publishedVideos(1);
    world.fake.control.failNext('videos.list', { kind: 'delayAfter', ms: 2_000 });

    const timedOut = await read(channelToken(world), posts, AbortSignal.timeout(200));
    world.fake.control.failNext('videos.list', {
      kind: 'reply',
      reply: { status: 503, json: { error: { code: 503, message: 'Backend Error' } } },
    });
    const serverError = await read(channelToken(world), posts);

    expect(timedOut).toMatchObject({ kind: 'failed', failure: 'unavailable' });
    expect(serverError).toMatchObject({ kind: 'failed', failure: 'unavailable' });
  });

  it('stops at a failing batch: no half reading of the posts asked for', async () => {
    await start({ batchSize: 2 });
    const posts = publishedVideos(4);
    world.fake.control.failNext('videos.list', { kind: 'pass' });
    world.fake.control.failNext('videos.list', { kind: 'reply', reply: googleErrors.rateLimited() });

    const answer = await read(channelToken(world), posts);

    expect(answer).toMatchObject({ kind: 'failed', failure: 'rate_limited' });
    expect(statisticsReads()).toHaveLength(2);
  });
});

describe('YouTube channel metrics against the fake', () => {
  let world: YouTubeWorld;
  afterEach(() => world.stop());

  it('reads subscribers (rounded down as YouTube shows them), total views and videos in one call', async () => {
    const clock = clockAt(PUBLISHED_AT);
    world = await startWorld(
      { now: clock.now, channels: [{ ...CHANNEL, subscribers: 12_345 }] },
      { now: clock.now },
    );
    world.fake.control.addVideo({ channelId: CHANNEL.id, uploadedAt: PUBLISHED_AT });
    world.fake.control.addVideo({ channelId: CHANNEL.id, uploadedAt: PUBLISHED_AT });
    clock.ms += 10 * HOUR;

    const answer = await world.network.connector.readAccountMetrics?.({
      account: anAccount(),
      credentials: { accessToken: channelToken(world) },
      signal: AbortSignal.timeout(10_000),
    });

    const views = 2 * 10 * FAKE_VIEWS_PER_HOUR;
    // 12,345 + 1,200 / 100 = 12,357, shown as 12,300.
    expect(answer).toEqual({ kind: 'metrics', metrics: { followers: 12_300, views, posts: 2 } });
    const seen = world.fake.control.requests().filter((request) => request.endpoint === 'channels.list');
    expect(seen.map((request) => request.query)).toEqual([{ part: 'statistics', mine: 'true' }]);
  });

  it('leaves followers out when the owner hid the subscriber count', async () => {
    world = await startWorld({ channels: [{ ...CHANNEL, hiddenSubscriberCount: true }] });

    const answer = await world.network.connector.readAccountMetrics?.({
      account: anAccount(),
      credentials: { accessToken: channelToken(world) },
      signal: AbortSignal.timeout(10_000),
    });

    expect(answer).toEqual({ kind: 'metrics', metrics: { views: 0, posts: 0 } });
  });

  it('answers missing_scopes for the channel read without the read-only scope', async () => {
    world = await startWorld();

    const answer = await world.network.connector.readAccountMetrics?.({
      account: anAccount(),
      credentials: { accessToken: channelToken(world, [YOUTUBE_UPLOAD_SCOPE]) },
      signal: AbortSignal.timeout(10_000),
    });

    expect(answer).toMatchObject({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: [...YOUTUBE_METRICS_SCOPES],
    });
  });
});
