import { afterEach, describe, expect, it } from 'vitest';
import {
  FAKE_ANALYTICS_LAG_HOURS,
  FAKE_AVERAGE_VIEW_PERCENTAGE,
  FAKE_MINUTES_PER_VIEW,
  FAKE_VIEWS_PER_HOUR,
  googleErrors,
  VIDEOS_LIST_MAX_IDS,
} from '../../../../infra/fake-networks/youtube/index.js';
import { YOUTUBE_READONLY_SCOPE, YOUTUBE_UPLOAD_SCOPE } from '../../../../shared/networks/youtube/scopes.js';
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
      missingScopes: [YOUTUBE_READONLY_SCOPE],
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
      missingScopes: [YOUTUBE_READONLY_SCOPE],
    });
  });
});

describe('YouTube watch time from the Analytics API against the fake', () => {
  let world: YouTubeWorld;
  let clock: ReturnType<typeof clockAt>;
  afterEach(() => world.stop());

  /** Three days after PUBLISHED_AT: a day past the fake's data lag. */
  const THREE_DAYS_LATER = Date.parse(PUBLISHED_AT) + 72 * HOUR;

  async function start() {
    clock = clockAt(PUBLISHED_AT);
    clock.ms = THREE_DAYS_LATER;
    world = await startWorld({ now: clock.now }, { now: clock.now });
  }

  const video = (uploadedAt = PUBLISHED_AT) =>
    world.fake.control.addVideo({ channelId: CHANNEL.id, uploadedAt });
  const target = (postId: string, platformPostId: string): MetricsTarget => ({
    postId,
    platformPostId,
    publishedAt: PUBLISHED_AT,
  });

  const read = (accessToken: string, posts: readonly MetricsTarget[], scopes?: readonly string[]) => {
    const readPostMetrics = world.network.connector.readPostMetrics;
    if (!readPostMetrics) throw new Error('The YouTube connector reads no metrics.');
    return readPostMetrics({
      account: anAccount(scopes ? { scopes: [...scopes] } : {}),
      credentials: { accessToken },
      posts,
      signal: AbortSignal.timeout(10_000),
    });
  };

  const reportReads = () => world.fake.control.requests().filter((seen) => seen.endpoint === 'reports.query');

  /** What the fake's report gives a video uploaded at PUBLISHED_AT, read at `nowMs`. */
  const expectedWatch = (nowMs: number) => {
    const views = Math.floor(
      ((nowMs - FAKE_ANALYTICS_LAG_HOURS * HOUR - Date.parse(PUBLISHED_AT)) / HOUR) * FAKE_VIEWS_PER_HOUR,
    );
    return {
      watchTimeSeconds: views * FAKE_MINUTES_PER_VIEW * 60,
      averageViewPercent: FAKE_AVERAGE_VIEW_PERCENTAGE,
    };
  };

  it('merges estimatedMinutesWatched × 60 and averageViewPercentage into each reading, growing with the clock, in one report per batch', async () => {
    await start();
    const ids = [video(), video()];
    const posts = [target('pst_1', ids[0] ?? ''), target('pst_2', ids[1] ?? '')];
    const unitsBefore = world.fake.control.quota().used;

    const first = await read(channelToken(world), posts);
    clock.ms += 5 * HOUR;
    const later = await read(channelToken(world), posts);

    const views = 72 * FAKE_VIEWS_PER_HOUR;
    expect(first).toEqual({
      kind: 'metrics',
      byPost: {
        pst_1: {
          views,
          likes: views / 20,
          comments: Math.floor(views / 50),
          ...expectedWatch(THREE_DAYS_LATER),
        },
        pst_2: {
          views,
          likes: views / 20,
          comments: Math.floor(views / 50),
          ...expectedWatch(THREE_DAYS_LATER),
        },
      },
      notFound: [],
    });
    expect(later.kind === 'metrics' && later.byPost.pst_1?.watchTimeSeconds).toBe(
      expectedWatch(THREE_DAYS_LATER + 5 * HOUR).watchTimeSeconds,
    );
    // The report as reports.query takes it, for the same ids as the statistics read.
    expect(reportReads()).toHaveLength(2);
    expect(reportReads()[0]?.query).toEqual({
      ids: 'channel==MINE',
      startDate: '2005-02-14',
      endDate: '2026-05-13',
      metrics: 'estimatedMinutesWatched,averageViewPercentage',
      dimensions: 'video',
      filters: `video==${ids.join(',')}`,
    });
    // Two statistics reads, one unit each: the reports cost no Data API units.
    expect(world.fake.control.quota().used - unitsBefore).toBe(2);
  });

  it('leaves the two fields out for a video too new for the data (no row), beside one that has them', async () => {
    await start();
    const old = video();
    const fresh = video(new Date(THREE_DAYS_LATER - 2 * HOUR).toISOString());

    const answer = await read(channelToken(world), [target('pst_old', old), target('pst_new', fresh)]);

    expect(answer).toMatchObject({ kind: 'metrics', byPost: { pst_old: expectedWatch(THREE_DAYS_LATER) } });
    const freshReading = answer.kind === 'metrics' ? answer.byPost.pst_new : undefined;
    expect(freshReading).toEqual({ views: 2 * FAKE_VIEWS_PER_HOUR, likes: 6, comments: 2 });
  });

  it('without the Analytics scope: the statistics alone (the fake refused the report 403), no report asked when the grant shows it missing', async () => {
    await start();
    const posts = [target('pst_1', video())];
    const withoutAnalytics = [YOUTUBE_UPLOAD_SCOPE, YOUTUBE_READONLY_SCOPE];

    const grantUnknown = await read(channelToken(world, withoutAnalytics), posts);
    const refusedReports = reportReads().length;
    const grantKnown = await read(channelToken(world, withoutAnalytics), posts, withoutAnalytics);

    const statisticsOnly = { views: 72 * FAKE_VIEWS_PER_HOUR, likes: 216, comments: 86 };
    expect(grantUnknown).toEqual({ kind: 'metrics', byPost: { pst_1: statisticsOnly }, notFound: [] });
    expect(grantKnown).toEqual(grantUnknown);
    expect(refusedReports).toBe(1);
    expect(reportReads()).toHaveLength(1);
  });

  it('keeps the statistics when the report is throttled, fails or times out; a refused token fails the reading', async () => {
    await start();
    const posts = [target('pst_1', video())];
    const statisticsOnly = { views: 72 * FAKE_VIEWS_PER_HOUR, likes: 216, comments: 86 };
    world.fake.control.failNext('reports.query', { kind: 'reply', reply: googleErrors.rateLimited(30) });
    world.fake.control.failNext('reports.query', {
      kind: 'reply',
      reply: { status: 503, json: { error: { code: 503, message: 'Backend Error' } } },
    });

    const throttled = await read(channelToken(world), posts);
    const serverError = await read(channelToken(world), posts);
    world.fake.control.failNext('reports.query', { kind: 'reply', reply: googleErrors.unauthorized() });
    const refused = await read(channelToken(world), posts);

    expect(throttled).toEqual({ kind: 'metrics', byPost: { pst_1: statisticsOnly }, notFound: [] });
    expect(serverError).toEqual(throttled);
    expect(refused).toEqual({
      kind: 'failed',
      failure: 'auth_failed',
      message: "YouTube refused the account's access token at the video analytics read.",
    });
  });

  it('asks the report for the found videos of each batch only (a deleted one is in notFound, not in the filter)', async () => {
    await start();
    const posts = Array.from({ length: VIDEOS_LIST_MAX_IDS + 3 }, (_, index) =>
      target(`pst_${index + 1}`, video()),
    );
    world.fake.control.deleteVideo(posts[1]?.platformPostId ?? '');

    const answer = await read(channelToken(world), posts);

    expect(answer).toMatchObject({ kind: 'metrics', notFound: ['pst_2'] });
    const filtered = reportReads().map((seen) =>
      (seen.query.filters ?? '').replace('video==', '').split(','),
    );
    expect(filtered.map((ids) => ids.length)).toEqual([VIDEOS_LIST_MAX_IDS - 1, 3]);
    expect(filtered.flat()).not.toContain(posts[1]?.platformPostId);
    expect(answer.kind === 'metrics' && answer.byPost.pst_53).toMatchObject(expectedWatch(THREE_DAYS_LATER));
  });
});
