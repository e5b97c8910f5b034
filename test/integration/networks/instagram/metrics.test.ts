import { afterEach, describe, expect, it } from 'vitest';
import { fakeInsightsAt } from '../../../../infra/fake-networks/instagram/index.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import { instagramDefinition } from '../../../../shared/networks/instagram/definition.js';
import type {
  AccountMetricsAnswer,
  MetricsTarget,
  PostMetricsAnswer,
} from '../../../../shared/ports/connector.js';
import { anAccount, CALLBACK, type InstagramWorld, startWorld, USER, userToken } from './instagram-world.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const BASIC = 'instagram_business_basic';
const PUBLISH = 'instagram_business_content_publish';
const INSIGHTS = 'instagram_business_manage_insights';
const FEED_METRICS = 'views,reach,likes,comments,shares,saved';

/**
 * The connector's metrics readers against the fake (docs/metrics.md "Instagram"): each post's
 * product type, then `/{media-id}/insights` with the metrics that type answers, one media a
 * request; numbers grow with the fake's clock.
 */
describe('Instagram metrics against the fake', () => {
  let world: InstagramWorld;
  let now = Date.parse('2026-06-01T10:00:00.000Z');
  afterEach(() => world.stop());

  async function start(): Promise<void> {
    now = Date.parse('2026-06-01T10:00:00.000Z');
    world = await startWorld({ now: () => now });
  }

  const publishedAgo = (ms: number, productType: 'FEED' | 'REELS' | 'STORY' = 'FEED'): string => {
    const [id] = world.fake.control.addPublished(USER.userId, [now - ms], productType);
    return id ?? '';
  };
  const target = (postId: string, platformPostId: string): MetricsTarget => ({
    postId,
    platformPostId,
    publishedAt: new Date(now).toISOString(),
  });
  const read = (
    posts: MetricsTarget[],
    options: { token?: string; account?: Account; signal?: AbortSignal } = {},
  ): Promise<PostMetricsAnswer> => {
    const readPostMetrics = world.network.connector.readPostMetrics;
    if (!readPostMetrics) throw new Error('Instagram has no post metrics reader.');
    return readPostMetrics({
      account: options.account ?? anAccount(),
      credentials: { accessToken: options.token ?? userToken(world) },
      posts,
      signal: options.signal ?? AbortSignal.timeout(5000),
    });
  };
  const insightsRequests = () =>
    world.fake.control.requests().filter((request) => request.endpoint === 'media.insights');
  const mediaOf = (id: string) => {
    const media = world.fake.control.media().find((item) => item.id === id);
    if (!media) throw new Error(`no media ${id}`);
    return media;
  };

  it('reads a feed post’s insights by Instagram’s names, mapped to ours (saved → saves), and they grow with time', async () => {
    await start();
    const id = publishedAgo(DAY_MS);
    const first = await read([target('pst_1', id)]);
    const expected = fakeInsightsAt(mediaOf(id), now);
    expect(first).toEqual({
      kind: 'metrics',
      byPost: {
        pst_1: {
          views: expected.views,
          reach: expected.reach,
          likes: expected.likes,
          comments: expected.comments,
          shares: expected.shares,
          saves: expected.saved,
        },
      },
      notFound: [],
    });
    expect(expected.views).toBeGreaterThan(0);
    // The type first (a metric the type does not answer is an error), then the insights.
    const seen = world.fake.control.requests().filter((request) => request.path.includes(id));
    expect(seen.map((request) => [request.endpoint, request.params])).toEqual([
      ['object.get', { fields: 'media_product_type' }],
      ['media.insights', { metric: FEED_METRICS }],
    ]);

    now += 6 * DAY_MS;
    const later = await read([target('pst_1', id)]);
    if (later.kind !== 'metrics' || first.kind !== 'metrics') throw new Error('no metrics');
    expect(later.byPost.pst_1?.views).toBeGreaterThan(first.byPost.pst_1?.views ?? Number.POSITIVE_INFINITY);
    expect(later.byPost.pst_1?.likes).toBeGreaterThan(first.byPost.pst_1?.likes ?? Number.POSITIVE_INFINITY);
  });

  it('asks a reel for its watch time too, and answers it in seconds', async () => {
    await start();
    const id = publishedAgo(3 * DAY_MS, 'REELS');
    const answer = await read([target('pst_reel', id)]);
    const expected = fakeInsightsAt(mediaOf(id), now);
    if (answer.kind !== 'metrics') throw new Error(answer.message);
    expect(answer.byPost.pst_reel).toMatchObject({
      views: expected.views,
      watchTimeSeconds: Math.round((expected.ig_reels_video_view_total_time ?? 0) / 1000),
    });
    expect(insightsRequests()[0]?.params.metric).toBe(`${FEED_METRICS},ig_reels_video_view_total_time`);
  });

  it('asks a story only what stories answer; one seen by fewer than 5 accounts has no numbers yet', async () => {
    await start();
    const young = publishedAgo(1000, 'STORY');
    const seen = publishedAgo(3 * HOUR_MS, 'STORY');
    const account = anAccount({ scopes: [BASIC, PUBLISH, INSIGHTS] });
    const answer = await read([target('pst_young', young), target('pst_seen', seen)], { account });
    const expected = fakeInsightsAt(mediaOf(seen), now);
    expect(answer).toEqual({
      kind: 'metrics',
      byPost: {
        pst_young: {},
        pst_seen: { views: expected.views, reach: expected.reach, shares: expected.shares },
      },
      notFound: [],
    });
    expect(insightsRequests().map((request) => request.params.metric)).toEqual([
      'views,reach,shares',
      'views,reach,shares',
    ]);
  });

  it('reads a story past its 24 hours as no numbers (Instagram answers an empty data set), not zero', async () => {
    await start();
    const old = publishedAgo(2 * DAY_MS, 'STORY');
    const account = anAccount({ scopes: [BASIC, PUBLISH, INSIGHTS] });
    expect(await read([target('pst_old', old)], { account })).toEqual({
      kind: 'metrics',
      byPost: { pst_old: {} },
      notFound: [],
    });
  });

  it('the fake refuses what Instagram refuses: no metric, a deprecated one, one the product type does not answer', async () => {
    await start();
    const story = publishedAgo(3 * HOUR_MS, 'STORY');
    const feed = publishedAgo(DAY_MS);
    const token = userToken(world);
    const ask = async (id: string, metric?: string) => {
      const url = new URL(`${world.fake.graphUrl}/v23.0/${id}/insights`);
      if (metric !== undefined) url.searchParams.set('metric', metric);
      const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { error?: { code?: number } };
      return [response.status, body.error?.code];
    };
    expect(await ask(feed)).toEqual([400, 100]);
    expect(await ask(feed, 'views,impressions')).toEqual([400, 100]);
    expect(await ask(feed, 'plays')).toEqual([400, 100]);
    expect(await ask(story, 'views,likes')).toEqual([400, 100]);
    expect(await ask(story, 'views,reach')).toEqual([200, undefined]);
  });

  it('reads a batch of several posts one media per request, as Instagram takes one id a call', async () => {
    await start();
    expect(instagramDefinition.metrics?.batchSize).toBe(1);
    const ids = [publishedAgo(HOUR_MS), publishedAgo(6 * HOUR_MS), publishedAgo(DAY_MS)];
    const answer = await read(ids.map((id, index) => target(`pst_${index}`, id)));
    if (answer.kind !== 'metrics') throw new Error(answer.message);
    expect(Object.keys(answer.byPost)).toEqual(['pst_0', 'pst_1', 'pst_2']);
    const requests = insightsRequests();
    expect(requests).toHaveLength(3);
    for (const [index, request] of requests.entries()) {
      // One id, in the path, per request: the batch limit (1) held.
      expect(request.path).toBe(`/v23.0/${ids[index]}/insights`);
    }
  });

  it('puts a post deleted on Instagram in notFound and still reads the others', async () => {
    await start();
    const kept = publishedAgo(DAY_MS);
    const deleted = publishedAgo(DAY_MS);
    world.fake.control.deleteMedia(deleted);
    const answer = await read([target('pst_deleted', deleted), target('pst_kept', kept)]);
    if (answer.kind !== 'metrics') throw new Error(answer.message);
    expect(answer.notFound).toEqual(['pst_deleted']);
    expect(Object.keys(answer.byPost)).toEqual(['pst_kept']);
  });

  it('answers missing_scopes naming the insights permission when the token lacks it (Instagram’s code 10)', async () => {
    await start();
    const id = publishedAgo(DAY_MS);
    const token = userToken(world, { scopes: [BASIC, PUBLISH] });
    const answer = await read([target('pst_1', id)], { token });
    expect(answer).toMatchObject({ kind: 'failed', failure: 'missing_scopes', missingScopes: [INSIGHTS] });
    expect(insightsRequests()).toHaveLength(1);
  });

  it('answers missing_scopes without a call when the account’s granted scopes lack it', async () => {
    await start();
    const id = publishedAgo(DAY_MS);
    const account = anAccount({ scopes: [BASIC, PUBLISH] });
    const answer = await read([target('pst_1', id)], { account });
    expect(answer).toMatchObject({ kind: 'failed', failure: 'missing_scopes', missingScopes: [INSIGHTS] });
    expect(world.fake.control.requests()).toHaveLength(0);
  });

  it('answers rate_limited with the wait Instagram names in X-Business-Use-Case-Usage (code 80002)', async () => {
    await start();
    const ids = [publishedAgo(DAY_MS), publishedAgo(DAY_MS)];
    world.fake.control.limitCalls(USER.userId, 2);
    now += 15 * 60 * 1000;
    const answer = await read(ids.map((id, index) => target(`pst_${index}`, id)));
    // The first post took the budget's two calls; the window has 45 minutes left.
    expect(answer).toMatchObject({ kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 45 * 60 });
  });

  it('answers auth_failed for an expired token (code 190) and for an account without one', async () => {
    await start();
    const id = publishedAgo(DAY_MS);
    const token = userToken(world);
    world.fake.control.expireToken(token);
    expect(await read([target('pst_1', id)], { token })).toMatchObject({
      kind: 'failed',
      failure: 'auth_failed',
    });
    const readPostMetrics = world.network.connector.readPostMetrics;
    const withoutToken = await readPostMetrics?.({
      account: anAccount(),
      posts: [target('pst_1', id)],
      signal: AbortSignal.timeout(5000),
    });
    expect(withoutToken).toMatchObject({ kind: 'failed', failure: 'auth_failed' });
  });

  it('answers unavailable when Instagram does not answer in time, or answers 5xx, and never repeats its body', async () => {
    await start();
    const id = publishedAgo(DAY_MS);
    world.fake.control.failNext('media.insights', { kind: 'delayAfter', ms: 2000 });
    const timedOut = await read([target('pst_1', id)], { signal: AbortSignal.timeout(300) });
    expect(timedOut).toMatchObject({ kind: 'failed', failure: 'unavailable' });

    world.fake.control.failNext('media.insights', {
      kind: 'reply',
      reply: { status: 503, json: { error: { message: 'secret-ish raw text', code: 2 } } },
    });
    const failed = await read([target('pst_1', id)]);
    expect(failed).toMatchObject({ kind: 'failed', failure: 'unavailable' });
    if (failed.kind === 'failed') expect(failed.message).not.toContain('secret-ish');
  });

  it('asks for the insights permission at connect; a person who declines it gets a token without it', async () => {
    await start();
    const authorizeUrl = world.network.oauth.authorizationUrl({
      clientId: world.fake.clientId,
      state: 'st',
      redirectUri: CALLBACK,
    });
    expect(new URL(authorizeUrl).searchParams.get('scope')?.split(',')).toContain(INSIGHTS);
    const page = await (await fetch(authorizeUrl)).text();
    const form = new URLSearchParams();
    for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      form.set(
        match[1] ?? '',
        (match[2] ?? '').replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))),
      );
    }
    form.set('decision', 'approve');
    form.set('decline', INSIGHTS);
    const back = await fetch(new URL('/oauth/authorize/decision', authorizeUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    const code = new URL(back.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const tokens = await world.network.oauth.exchangeCode(
      { code, redirectUri: CALLBACK },
      AbortSignal.timeout(5000),
    );
    expect(tokens.scopes).toEqual([BASIC, PUBLISH, 'instagram_business_manage_comments']);
    const id = publishedAgo(DAY_MS);
    const answer = await read([target('pst_1', id)], { token: tokens.accessToken });
    expect(answer).toMatchObject({ kind: 'failed', failure: 'missing_scopes', missingScopes: [INSIGHTS] });
  });

  it('reads the account’s followers, following and posts from /me, followers growing with time', async () => {
    await start();
    publishedAgo(DAY_MS);
    publishedAgo(HOUR_MS, 'STORY');
    const readAccountMetrics = world.network.connector.readAccountMetrics;
    const readAccount = (): Promise<AccountMetricsAnswer | undefined> =>
      readAccountMetrics?.({
        account: anAccount(),
        credentials: { accessToken: userToken(world) },
        signal: AbortSignal.timeout(5000),
      }) ?? Promise.resolve(undefined);
    expect(await readAccount()).toEqual({
      kind: 'metrics',
      metrics: { followers: 1000, following: 150, posts: 1 },
    });
    now += 10 * HOUR_MS;
    expect(await readAccount()).toMatchObject({ metrics: { followers: 1020 } });
    const me = world.fake.control.requests().filter((request) => request.endpoint === 'me');
    expect(me[0]?.params).toEqual({ fields: 'followers_count,follows_count,media_count' });
  });
});
