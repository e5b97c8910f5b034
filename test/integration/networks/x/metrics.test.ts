import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_X_USER } from '../../../../infra/fake-networks/x/index.js';
import { X_METRICS_BATCH_SIZE } from '../../../../shared/networks/x/metrics-fields.js';
import { X_SCOPES } from '../../../../shared/networks/x/oauth.js';
import type { MetricsTarget, PostMetricsAnswer } from '../../../../shared/ports/connector.js';
import { connect, startXWorld, type XWorld, xAccount } from './x-fixture.js';

const HOUR_MS = 60 * 60 * 1000;

describe('X metrics: the connector against the fake X (GET /2/tweets, GET /2/users/me)', () => {
  let world: XWorld;
  let accessToken: string;
  /** The fake's clock is moved by the tests; the connector reads the same one. */
  let offsetMs = 0;
  const fakeNow = () => Date.now() + offsetMs;
  const advance = (ms: number) => {
    offsetMs += ms;
    world.fake.control.advanceClock(ms);
  };
  const tweet = (text: string, ageMs = HOUR_MS) =>
    world.fake.control.addTweet({ authorId: DEFAULT_FAKE_X_USER.id, text, ageMs });
  const target = (platformPostId: string, postId = `pst_${platformPostId}`): MetricsTarget => ({
    postId,
    platformPostId,
    publishedAt: new Date(fakeNow() - HOUR_MS).toISOString(),
  });
  const read = (posts: MetricsTarget[], token = accessToken, signal = AbortSignal.timeout(5000)) =>
    world.connector.readPostMetrics?.({
      account: xAccount(),
      credentials: { accessToken: token },
      posts,
      signal,
    }) as Promise<PostMetricsAnswer>;
  const lookups = () =>
    world.fake.control.requests().filter((request) => request.endpoint === 'tweets.lookup');
  /** What X itself answers for one tweet, read straight from the fake. */
  const rawPublicMetrics = async (id: string) => {
    const answer = await fetch(`${world.fake.apiUrl}/2/tweets?ids=${id}&tweet.fields=public_metrics`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    const body = (await answer.json()) as { data: { public_metrics: Record<string, number> }[] };
    return body.data[0]?.public_metrics ?? {};
  };

  beforeAll(async () => {
    world = await startXWorld({ now: fakeNow });
    // A token that outlives the days the clock is moved (X's live 2 hours; refreshing is not what this is about).
    accessToken = world.fake.control.issueAccessToken({
      scopes: [...X_SCOPES],
      expiresInSeconds: 365 * 24 * 60 * 60,
    });
  });
  afterAll(async () => {
    await world.fake.stop();
  });

  it('reads a post’s public_metrics into our names, numbers that grow with the fake’s clock', async () => {
    const id = tweet('Metrics, first reading', 6 * HOUR_MS);
    const x = await rawPublicMetrics(id);

    const first = await read([target(id, 'pst_first')]);

    expect(first).toEqual({
      kind: 'metrics',
      byPost: {
        pst_first: {
          impressions: x.impression_count,
          likes: x.like_count,
          comments: x.reply_count,
          shares: x.retweet_count,
          quotes: x.quote_count,
          saves: x.bookmark_count,
        },
      },
      notFound: [],
    });
    expect(x.impression_count).toBeGreaterThan(0);
    const request = lookups().at(-1);
    expect(new URLSearchParams(request?.query).get('tweet.fields')).toBe('public_metrics');

    advance(3 * 24 * HOUR_MS);
    const later = await read([target(id, 'pst_first')]);
    const before = first.kind === 'metrics' ? first.byPost.pst_first : undefined;
    const after = later.kind === 'metrics' ? later.byPost.pst_first : undefined;
    expect(after?.impressions).toBeGreaterThan(before?.impressions ?? Number.POSITIVE_INFINITY);
    expect(after?.likes).toBeGreaterThan(before?.likes ?? Number.POSITIVE_INFINITY);
  });

  it('splits 150 posts into requests of at most 100 ids, and reads every one (64-bit ids kept exact)', async () => {
    const ids = Array.from({ length: 150 }, (_, index) => tweet(`Batch ${index}`));
    const seen = lookups().length;

    const answer = await read(ids.map((id) => target(id)));

    const requests = lookups().slice(seen);
    const batches = requests.map((request) =>
      (new URLSearchParams(request.query).get('ids') ?? '').split(','),
    );
    expect(batches.map((batch) => batch.length)).toEqual([X_METRICS_BATCH_SIZE, 50]);
    expect(batches.flat()).toEqual(ids);
    expect(answer.kind).toBe('metrics');
    if (answer.kind !== 'metrics') return;
    expect(Object.keys(answer.byPost).sort()).toEqual(ids.map((id) => `pst_${id}`).sort());
  });

  it('a post deleted on X is in notFound; the others of the batch are still read', async () => {
    const kept = tweet('Still there');
    const deleted = tweet('Deleted soon');
    world.fake.control.deleteTweet(deleted);

    const answer = await read([target(kept, 'pst_kept'), target(deleted, 'pst_deleted')]);

    expect(answer.kind).toBe('metrics');
    if (answer.kind !== 'metrics') return;
    expect(answer.notFound).toEqual(['pst_deleted']);
    expect(Object.keys(answer.byPost)).toEqual(['pst_kept']);
  });

  it('a token without users.read (connected before it was asked for): missing_scopes naming it', async () => {
    const id = tweet('Scopes');
    const narrow = world.fake.control.issueAccessToken({
      scopes: ['tweet.read', 'tweet.write', 'offline.access'],
    });

    const answer = await read([target(id)], narrow);

    expect(answer).toMatchObject({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['users.read'],
    });
    if (answer.kind === 'failed') expect(answer.message).not.toContain('Missing scopes');
  });

  it('an account whose recorded scopes lack one: missing_scopes without asking X', async () => {
    const seen = world.fake.control.requests().length;

    const answer = await world.connector.readPostMetrics?.({
      account: xAccount({ scopes: ['tweet.read', 'tweet.write', 'offline.access'] }),
      credentials: { accessToken },
      posts: [target(tweet('Recorded scopes'))],
      signal: AbortSignal.timeout(5000),
    });

    expect(answer).toMatchObject({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['users.read'],
    });
    expect(world.fake.control.requests()).toHaveLength(seen);
  });

  it('a spent window: rate_limited, retryAfterSeconds until x-rate-limit-reset', async () => {
    const id = tweet('Rate limited');
    const resetAt = Math.floor(fakeNow() / 1000) + 120;
    world.fake.control.setRateLimit('tweets.lookup', { remaining: 0, resetAt });

    const answer = await read([target(id)]);

    expect(answer).toMatchObject({ kind: 'failed', failure: 'rate_limited' });
    if (answer.kind !== 'failed') return;
    expect(answer.retryAfterSeconds).toBeGreaterThanOrEqual(119);
    expect(answer.retryAfterSeconds).toBeLessThanOrEqual(121);
    world.fake.control.setRateLimit('tweets.lookup', { remaining: 5000 });
  });

  it('a 429 without a reset time: rate_limited, without a wait it cannot know', async () => {
    world.fake.control.failNext('tweets.lookup', {
      status: 429,
      body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
    });

    const answer = await read([target(tweet('429 bare'))]);

    expect(answer).toMatchObject({ kind: 'failed', failure: 'rate_limited' });
    if (answer.kind === 'failed') expect(answer.retryAfterSeconds).toBeUndefined();
  });

  it('an expired token: auth_failed', async () => {
    const expired = world.fake.control.issueAccessToken({
      scopes: ['tweet.read', 'users.read'],
      expiresInSeconds: 0,
    });

    const answer = await read([target(tweet('Expired'))], expired);

    expect(answer).toMatchObject({ kind: 'failed', failure: 'auth_failed' });
  });

  it('X does not answer before the signal ends: unavailable; a 503 too', async () => {
    world.fake.control.answerLate('tweets.lookup', { delayMs: 30_000 });
    const late = await read([target(tweet('Late'))], accessToken, AbortSignal.timeout(300));
    expect(late).toMatchObject({ kind: 'failed', failure: 'unavailable' });

    world.fake.control.failNext('tweets.lookup', {
      status: 503,
      body: { title: 'Service Unavailable', type: 'about:blank', status: 503 },
    });
    const down = await read([target(tweet('Down'))]);
    expect(down).toMatchObject({ kind: 'failed', failure: 'unavailable' });
  });

  it('a failed batch ends the read: the next batch is not asked for (X charges per read)', async () => {
    const ids = Array.from({ length: 120 }, (_, index) => tweet(`Stop ${index}`));
    world.fake.control.failNext('tweets.lookup', { status: 503 });
    const seen = lookups().length;

    const answer = await read(ids.map((id) => target(id)));

    expect(answer).toMatchObject({ kind: 'failed', failure: 'unavailable' });
    expect(lookups().length - seen).toBe(1);
  });

  it('the account: followers, following and posts from one GET /2/users/me, followers growing', async () => {
    const readAccount = () =>
      world.connector.readAccountMetrics?.({
        account: xAccount(),
        credentials: { accessToken },
        signal: AbortSignal.timeout(5000),
      });
    const first = await readAccount();
    advance(5 * HOUR_MS);
    const later = await readAccount();

    expect(first).toMatchObject({ kind: 'metrics', metrics: { following: 50 } });
    const posts = world.fake.control
      .tweets()
      .filter((item) => item.authorId === DEFAULT_FAKE_X_USER.id).length;
    expect(later).toMatchObject({ kind: 'metrics', metrics: { posts } });
    if (first?.kind !== 'metrics' || later?.kind !== 'metrics') throw new Error('no metrics');
    expect(later.metrics.followers).toBe((first.metrics.followers ?? 0) + 5);
    const me = world.fake.control
      .requests()
      .filter((request) => request.endpoint === 'users.me')
      .at(-1);
    expect(new URLSearchParams(me?.query).get('user.fields')).toBe('public_metrics');
  });
});

describe('the fake X’s GET /2/tweets enforces what X documents', () => {
  let world: XWorld;
  let accessToken: string;
  const get = async (query: string, token = accessToken) => {
    const answer = await fetch(`${world.fake.apiUrl}/2/tweets?${query}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    world = await startXWorld();
    // Through the consent: the token carries what the connector asks for, the metrics' scopes among them.
    accessToken = (await connect(world)).accessToken;
  });
  afterAll(async () => {
    await world.fake.stop();
  });

  it('refuses more than 100 ids, an id of more than 19 digits or beyond 64 bits, and an unknown tweet.fields', async () => {
    const ids = Array.from({ length: 101 }, (_, index) => String(1_000 + index)).join(',');
    expect((await get(`ids=${ids}&tweet.fields=public_metrics`)).status).toBe(400);
    expect((await get('ids=12345678901234567890')).status).toBe(400);
    expect((await get('ids=9223372036854775808')).status).toBe(400);
    const unknown = await get('ids=1&tweet.fields=public_metrics,retweets');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ type: 'https://api.x.com/2/problems/invalid-request' });
  });

  it('answers a deleted post in errors[] with X’s resource-not-found problem, status 200', async () => {
    const id = world.fake.control.addTweet({ authorId: DEFAULT_FAKE_X_USER.id, text: 'Gone' });
    world.fake.control.deleteTweet(id);

    const answer = await get(`ids=${id}&tweet.fields=public_metrics`);

    expect(answer.status).toBe(200);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        resource_id: id,
        value: id,
        resource_type: 'tweet',
        type: 'https://api.x.com/2/problems/resource-not-found',
      }),
    ]);
  });

  it('gives non_public_metrics only for the author’s own posts of the last 30 days', async () => {
    const recent = world.fake.control.addTweet({ authorId: DEFAULT_FAKE_X_USER.id, text: 'Recent' });
    const old = world.fake.control.addTweet({
      authorId: DEFAULT_FAKE_X_USER.id,
      text: 'Old',
      ageMs: 31 * 24 * HOUR_MS,
    });

    const answer = await get(`ids=${recent},${old}&tweet.fields=non_public_metrics`);

    expect(answer.body.data).toEqual([
      expect.objectContaining({ id: recent, non_public_metrics: expect.any(Object) }),
    ]);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ resource_id: old, field: 'non_public_metrics' }),
    ]);
  });

  it('needs tweet.read and users.read on the token (403 otherwise), and a live token (401)', async () => {
    const narrow = world.fake.control.issueAccessToken({ scopes: ['users.read'] });
    expect((await get('ids=1', narrow)).status).toBe(403);
    const expired = world.fake.control.issueAccessToken({
      scopes: ['tweet.read', 'users.read'],
      expiresInSeconds: 0,
    });
    expect((await get('ids=1', expired)).status).toBe(401);
  });
});
