import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import {
  anAccount,
  aPost,
  type BlueskyWorld,
  connect,
  publishRequest,
  startWorld,
  USER,
} from './bluesky-world.js';

const xrpcError = (status: number, error: string, headers: Record<string, string> = {}) => ({
  kind: 'reply' as const,
  reply: { status, json: { error, message: `${error} (the network's words, never shown)` }, headers },
});

/** Each of Bluesky's error answers in our codes (docs/networks.md, Bluesky "Errors"). */
describe('Bluesky error map', () => {
  let world: BlueskyWorld;
  let tokens: TokenSet;
  beforeAll(async () => {
    world = await startWorld();
    tokens = await connect(world);
  });
  beforeEach(() => world.fake.control.clearFailures());
  afterAll(async () => {
    await world?.stop();
  });

  const publish = (text: string) =>
    world.network.connector.publish(publishRequest(world, aPost(text), tokens));

  it.each([
    [400, 'InvalidRequest', 'permanent', 'PLATFORM_REJECTED'],
    [400, 'AccountTakedown', 'auth_revoked', 'ACCOUNT_UNAVAILABLE'],
    [400, 'ExpiredToken', 'auth_rejected', 'TOKEN_REJECTED'],
    [403, 'InsufficientScope', 'auth_revoked', 'PLATFORM_FORBIDDEN'],
    [413, 'PayloadTooLarge', 'permanent', 'MEDIA_TOO_LARGE'],
  ])('%i %s → %s %s, without the network body', async (status, name, failure, code) => {
    world.fake.control.inject('createRecord', xrpcError(status, name));
    const outcome = await publish(`Refused ${name}`);
    expect(outcome).toMatchObject({ kind: 'failed', failure, code, platformRawCode: `${status} ${name}` });
    expect(JSON.stringify(outcome)).not.toContain("network's words");
  });

  it('a record the PDS finds invalid (the lexicon: 300 graphemes) is permanent', async () => {
    const outcome = await publish('x'.repeat(301));
    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_REJECTED',
      platformRawCode: '400 InvalidRequest',
    });
  });

  it('an expired access token is auth_rejected (the worker refreshes, then tries again)', async () => {
    const own = await connect(world, 'st_expired');
    world.fake.control.expireAccessTokens();
    const outcome = await world.network.connector.publish(publishRequest(world, aPost('Expired'), own));
    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'auth_rejected',
      code: 'TOKEN_REJECTED',
      platformRawCode: '401 InvalidToken',
    });
    const refreshed = await world.network.oauth.refresh?.(own, AbortSignal.timeout(5000));
    const retried = await world.network.connector.publish(
      publishRequest(world, aPost('Refreshed'), refreshed ?? own),
    );
    expect(retried.kind).toBe('published');
    tokens = await connect(world, 'st_after_expiry');
  });

  it('past the write points of the hour: rate_limited until the reset the PDS names', async () => {
    const limited = await startWorld({ writePointsPerHour: 6 });
    try {
      const own = await connect(limited, 'st_limits');
      const send = (text: string) =>
        limited.network.connector.publish(publishRequest(limited, aPost(text), own));
      expect((await send('one')).kind).toBe('published');
      expect((await send('two')).kind).toBe('published');
      const third = await send('three');
      expect(third).toMatchObject({
        kind: 'failed',
        failure: 'rate_limited',
        code: 'RATE_LIMITED',
        platformRawCode: '429 RateLimitExceeded',
      });
      if (third.kind === 'failed') {
        expect(third.retryAfterSeconds).toBeGreaterThan(3500);
        // The reset is whole seconds, rounded up.
        expect(third.retryAfterSeconds).toBeLessThanOrEqual(3601);
      }
      expect(limited.fake.control.posts()).toHaveLength(2);
    } finally {
      await limited.stop();
    }
  });

  it('a 502 from createRecord is looked up first: not there, it is transient (retried)', async () => {
    world.fake.control.inject('createRecord', xrpcError(502, 'UpstreamFailure'));
    const outcome = await publish('Bad gateway');
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_ERROR' });
    expect(world.fake.control.seen().at(-1)?.endpoint).toBe('getRecord');
  });

  it('a PDS that cannot be reached (connection refused): transient, nothing can have been posted', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const session = { ...JSON.parse(tokens.accessToken), pds: `http://127.0.0.1:${port}` };
    const outcome = await world.network.connector.publish(
      publishRequest(world, aPost('Nowhere'), { ...tokens, accessToken: JSON.stringify(session) }),
    );
    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'transient',
      code: 'PLATFORM_UNREACHABLE',
      platformRawCode: 'ECONNREFUSED',
    });
  });

  it('a connection dropped on createRecord is unknown; the look-up then says whether the post is there', async () => {
    const post = aPost('Dropped');
    world.fake.control.inject('createRecord', { kind: 'reset' });
    const outcome = await world.network.connector.publish(publishRequest(world, post, tokens));
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_NO_ANSWER' });
    const found = await world.network.connector.findPublished?.({
      account: anAccount(),
      credentials: { accessToken: tokens.accessToken },
      post,
      clientReference: post.postId,
      signal: AbortSignal.timeout(5000),
    });
    expect(found).toEqual({ kind: 'not_found' });
  });

  it('a session string that is not ours: the account must be reconnected', async () => {
    const outcome = await world.network.connector.publish(
      publishRequest(world, aPost('Garbled'), { ...tokens, accessToken: 'not-a-bundle' }),
    );
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'auth_revoked', code: 'TOKEN_REVOKED' });
  });

  it('the account named in the session is the one written to', async () => {
    const before = world.fake.control.posts().length;
    expect((await publish('Mine')).kind).toBe('published');
    expect(
      world.fake.control
        .posts()
        .slice(before)
        .map((post) => post.did),
    ).toEqual([USER.did]);
  });
});
