import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeXConnector } from '../../../../shared/networks/x/connector.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import { closedPortUrl, connect, publishRequest, startXWorld, type XWorld, xPost } from './x-fixture.js';

/** The connector's clock, frozen at a whole second near the fake's (which resets windows on real time). */
const NOW_MS = Math.floor(Date.now() / 1000) * 1000;

describe("X connector: X's errors mapped to outcomes", () => {
  let world: XWorld;
  let tokens: TokenSet;
  let counter = 0;
  const text = () => {
    counter += 1;
    return `error mapping ${counter}`;
  };
  beforeAll(async () => {
    world = await startXWorld({ now: () => NOW_MS });
    tokens = await connect(world);
  });
  afterAll(async () => {
    await world.fake.stop();
  });

  const cases = [
    {
      name: '401 → auth_rejected (the worker refreshes once)',
      status: 401,
      body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' },
      expected: { failure: 'auth_rejected', code: 'TOKEN_REJECTED', platformRawCode: '401' },
    },
    {
      name: '400 invalid-request → permanent PLATFORM_REJECTED',
      status: 400,
      body: {
        errors: [{ message: 'bad id' }],
        title: 'Invalid Request',
        detail: 'One or more parameters to your request was invalid.',
        type: 'https://api.x.com/2/problems/invalid-request',
      },
      expected: { failure: 'permanent', code: 'PLATFORM_REJECTED', platformRawCode: '400 invalid-request' },
    },
    {
      name: '403 client-forbidden → permanent PLATFORM_FORBIDDEN',
      status: 403,
      body: { title: 'Forbidden', type: 'https://api.x.com/2/problems/client-forbidden', status: 403 },
      expected: { failure: 'permanent', code: 'PLATFORM_FORBIDDEN', platformRawCode: '403 client-forbidden' },
    },
    {
      name: '403 duplicate content → permanent DUPLICATE_CONTENT',
      status: 403,
      body: {
        detail: 'You are not allowed to create a Tweet with duplicate content.',
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
      },
      expected: { failure: 'permanent', code: 'DUPLICATE_CONTENT', platformRawCode: '403' },
    },
    {
      name: '429 → rate_limited until x-rate-limit-reset',
      status: 429,
      body: { title: 'Too Many Requests', type: 'about:blank', status: 429 },
      headers: {
        'x-rate-limit-limit': '100',
        'x-rate-limit-remaining': '0',
        'x-rate-limit-reset': String(NOW_MS / 1000 + 420),
      },
      expected: {
        failure: 'rate_limited',
        code: 'RATE_LIMITED',
        platformRawCode: '429',
        retryAfterSeconds: 420,
      },
    },
    {
      name: '429 with the v1-style code 88 and no reset header → rate_limited after a minute',
      status: 429,
      body: { errors: [{ code: 88, message: 'Rate limit exceeded' }] },
      expected: {
        failure: 'rate_limited',
        code: 'RATE_LIMITED',
        platformRawCode: '429 88',
        retryAfterSeconds: 60,
      },
    },
    {
      name: 'usage-capped → rate_limited',
      status: 429,
      body: { title: 'UsageCapExceeded', type: 'https://api.x.com/2/problems/usage-capped', status: 429 },
      headers: { 'x-rate-limit-reset': String(NOW_MS / 1000 + 30) },
      expected: {
        failure: 'rate_limited',
        code: 'RATE_LIMITED',
        platformRawCode: '429 usage-capped',
        retryAfterSeconds: 30,
      },
    },
    {
      name: '503 → transient PLATFORM_ERROR',
      status: 503,
      body: { title: 'Service Unavailable', type: 'about:blank', status: 503 },
      expected: { failure: 'transient', code: 'PLATFORM_ERROR', platformRawCode: '503' },
    },
    {
      name: '500 with no body → transient PLATFORM_ERROR',
      status: 500,
      expected: { failure: 'transient', code: 'PLATFORM_ERROR', platformRawCode: '500' },
    },
  ] as const;

  for (const { name, status, expected, ...rest } of cases) {
    it(name, async () => {
      world.fake.control.failNext('tweets.create', {
        status,
        ...('body' in rest && { body: rest.body }),
        ...('headers' in rest && { headers: rest.headers }),
      });

      const outcome = await world.connector.publish(publishRequest(xPost(text()), tokens));

      expect(outcome).toMatchObject({ kind: 'failed', ...expected });
      // The message is ours, never X's words.
      const message = outcome.kind === 'failed' ? outcome.message : '';
      expect(message).not.toBe('');
      for (const words of Object.values('body' in rest ? rest.body : {}).filter(
        (value) => typeof value === 'string',
      )) {
        if (words.length > 12) expect(message).not.toContain(words);
      }
    });
  }

  it('refuses a real duplicate: the same text twice from the same account', async () => {
    const post = xPost(text());
    await world.connector.publish(publishRequest(post, tokens));

    const again = await world.connector.publish(publishRequest(xPost(post.content), tokens));

    expect(again).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'DUPLICATE_CONTENT' });
  });

  it('is auth_rejected when the access token expired at X', async () => {
    const own = await connect(world);
    world.fake.control.expireAccessTokens();

    const outcome = await world.connector.publish(publishRequest(xPost(text()), own));

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'auth_rejected', code: 'TOKEN_REJECTED' });
    tokens = await connect(world);
  });

  it("waits for the window's reset after X's own 429, read from its headers", async () => {
    const resetAt = NOW_MS / 1000 + 600;
    world.fake.control.setRateLimit('tweets.create', { remaining: 0, resetAt });

    const outcome = await world.connector.publish(publishRequest(xPost(text()), tokens));

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 600 });
    world.fake.control.setRateLimit('tweets.create', { remaining: 100 });
  });

  it('stops a thread before the call X would refuse when the window is spent, keeping what it posted', async () => {
    const resetAt = NOW_MS / 1000 + 90;
    world.fake.control.setRateLimit('tweets.create', { remaining: 1, resetAt });
    const post = xPost([{ text: text() }, { text: text() }]);
    const before = world.fake.control.tweets().length;

    const outcome = await world.connector.publish(publishRequest(post, tokens));

    const posted = world.fake.control.tweets().slice(before);
    expect(posted).toHaveLength(1);
    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'rate_limited',
      retryAfterSeconds: 90,
      progress: { posted: [posted[0]?.id], media: {} },
    });
    expect(
      world.fake.control.requests().filter((request) => request.endpoint === 'tweets.create').length,
    ).toBeGreaterThan(0);
    world.fake.control.setRateLimit('tweets.create', { remaining: 100 });
  });

  it('is a transient failure, not an unknown one, when X cannot be reached at all', async () => {
    const nowhere = makeXConnector({ apiUrl: await closedPortUrl() });

    const outcome = await nowhere.publish(publishRequest(xPost(text()), tokens));

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'transient',
      code: 'PLATFORM_UNREACHABLE',
      platformRawCode: 'ECONNREFUSED',
    });
  });

  it('is auth_revoked, without calling X, for an account with no access token', async () => {
    const calls = world.fake.control.requests().length;

    const outcome = await world.connector.publish({
      ...publishRequest(xPost(text()), tokens),
      credentials: undefined,
    });

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'auth_revoked', code: 'TOKEN_REVOKED' });
    expect(world.fake.control.requests()).toHaveLength(calls);
  });

  it('maps failures of the upload steps too: a 401 on initialize, a 5xx on append', async () => {
    const { MemoryMediaBytes, storedMedia } = await import('./x-fixture.js');
    const bytes = new MemoryMediaBytes();
    const image = storedMedia(bytes, 'image/png', 100);
    const post = xPost(text(), { postType: 'image', media: [image.ref] });

    world.fake.control.failNext('media.initialize', {
      status: 401,
      body: { title: 'Unauthorized', type: 'about:blank' },
    });
    await expect(
      world.connector.publish(publishRequest(post, tokens, { media: [image.delivery], bytes })),
    ).resolves.toMatchObject({ kind: 'failed', failure: 'auth_rejected' });

    world.fake.control.failNext('media.append', { status: 502 });
    await expect(
      world.connector.publish(publishRequest(post, tokens, { media: [image.delivery], bytes })),
    ).resolves.toMatchObject({
      kind: 'failed',
      failure: 'transient',
      code: 'PLATFORM_ERROR',
      progress: { posted: [], media: {} },
    });
  });
});
