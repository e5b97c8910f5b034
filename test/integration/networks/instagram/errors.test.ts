import { afterEach, describe, expect, it } from 'vitest';
import { graphError } from '../../../../infra/fake-networks/instagram/index.js';
import { aRequest, type InstagramWorld, startWorld, storedMedia, userToken } from './instagram-world.js';

const NETWORK_TEXT = 'network says something private';

describe('Instagram errors mapped (code/subcode), with our own messages', () => {
  let world: InstagramWorld;
  afterEach(() => world.stop());

  const publishImageWith = async (
    reply: ReturnType<typeof graphError>,
    endpoint: 'media.create' | 'media_publish' = 'media.create',
  ) => {
    world = await startWorld();
    world.fake.control.failNext(endpoint, { kind: 'reply', reply });
    const image = storedMedia(world, 'image');
    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), 'image', [image]),
    );
    if (outcome.kind === 'failed') expect(outcome.message).not.toContain(NETWORK_TEXT);
    return outcome;
  };

  it.each([
    [4, undefined, '4'],
    [17, undefined, '17'],
    [32, undefined, '32'],
    [613, undefined, '613'],
    [80002, undefined, '80002'],
    [4, 1349210, '4/1349210'],
  ])('throttle code %s (subcode %s) → rate_limited RATE_LIMITED %s', async (code, subcode, raw) => {
    const outcome = await publishImageWith(
      graphError(code, NETWORK_TEXT, subcode === undefined ? {} : { subcode }),
    );
    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'rate_limited',
      code: 'RATE_LIMITED',
      platformRawCode: raw,
      retryAfterSeconds: 900,
    });
  });

  it('a throttle names its wait through X-Business-Use-Case-Usage (estimated_time_to_regain_access, minutes)', async () => {
    const usage = JSON.stringify({
      '17841400000000001': [{ type: 'instagram', call_count: 100, estimated_time_to_regain_access: 7 }],
    });
    const outcome = await publishImageWith(
      graphError(80002, NETWORK_TEXT, { headers: { 'x-business-use-case-usage': usage } }),
    );
    expect(outcome).toMatchObject({
      failure: 'rate_limited',
      platformRawCode: '80002',
      retryAfterSeconds: 420,
    });
  });

  it('9/2207042 at media_publish → rate_limited PUBLISH_LIMIT_REACHED', async () => {
    const outcome = await publishImageWith(
      graphError(9, NETWORK_TEXT, { subcode: 2207042 }),
      'media_publish',
    );
    expect(outcome).toMatchObject({
      failure: 'rate_limited',
      code: 'PUBLISH_LIMIT_REACHED',
      platformRawCode: '9/2207042',
    });
  });

  it.each([
    [190, 463, '190/463'],
    [190, 460, '190/460'],
    [190, undefined, '190'],
  ])(
    'token error %s/%s (HTTP 400) → auth_rejected TOKEN_REJECTED (the worker refreshes once)',
    async (code, subcode, raw) => {
      const outcome = await publishImageWith(
        graphError(code, NETWORK_TEXT, subcode === undefined ? {} : { subcode }),
      );
      expect(outcome).toMatchObject({
        kind: 'failed',
        failure: 'auth_rejected',
        code: 'TOKEN_REJECTED',
        platformRawCode: raw,
      });
    },
  );

  it('a revoked token at the fake itself → auth_rejected 190/458, nothing made', async () => {
    world = await startWorld();
    const token = userToken(world);
    world.fake.control.revokeToken(token);
    const outcome = await world.network.connector.publish(
      aRequest(world, token, 'image', [storedMedia(world, 'image')]),
    );
    expect(outcome).toMatchObject({ failure: 'auth_rejected', platformRawCode: '190/458' });
    expect(world.fake.control.containers()).toEqual([]);
  });

  it('a token without the publish permission → permanent PLATFORM_PERMISSION_DENIED (10)', async () => {
    world = await startWorld();
    const token = userToken(world, { scopes: ['instagram_business_basic'] });
    const outcome = await world.network.connector.publish(
      aRequest(world, token, 'image', [storedMedia(world, 'image')]),
    );
    expect(outcome).toMatchObject({
      failure: 'permanent',
      code: 'PLATFORM_PERMISSION_DENIED',
      platformRawCode: '10',
    });
  });

  it.each([
    [graphError(36000, NETWORK_TEXT, { subcode: 2207004 }), 'permanent', 'MEDIA_TOO_LARGE', '36000/2207004'],
    [graphError(4, NETWORK_TEXT, { subcode: 2207051 }), 'permanent', 'PLATFORM_REJECTED_SPAM', '4/2207051'],
    [
      graphError(-2, NETWORK_TEXT, { subcode: 2207003 }),
      'transient',
      'MEDIA_PROCESSING_FAILED',
      '-2/2207003',
    ],
    [
      graphError(-1, NETWORK_TEXT, { subcode: 2207001 }),
      'transient',
      'MEDIA_PROCESSING_FAILED',
      '-1/2207001',
    ],
    [graphError(1, NETWORK_TEXT, { subcode: 2207057 }), 'permanent', 'PLATFORM_REJECTED', '1/2207057'],
    [graphError(368, NETWORK_TEXT), 'rate_limited', 'TEMPORARILY_BLOCKED', '368'],
    [graphError(2, NETWORK_TEXT, { status: 503 }), 'transient', 'PLATFORM_ERROR', '2'],
    [graphError(100, NETWORK_TEXT), 'permanent', 'PLATFORM_REJECTED', '100'],
  ])('%j → %s %s', async (reply, failure, code, raw) => {
    const outcome = await publishImageWith(reply);
    expect(outcome).toMatchObject({ kind: 'failed', failure, code, platformRawCode: raw });
  });

  it('a 5xx without a Graph body keeps the HTTP status as the raw code', async () => {
    const outcome = await publishImageWith({ status: 502, html: '<h1>Bad gateway</h1>' });
    expect(outcome).toMatchObject({ failure: 'transient', code: 'PLATFORM_ERROR', platformRawCode: '502' });
  });

  it('a connection reset while a container is made is a transient failure (nothing published), not unknown', async () => {
    world = await startWorld();
    world.fake.control.failNext('media.create', { kind: 'reset' });
    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), 'image', [storedMedia(world, 'image')]),
    );
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_NO_ANSWER' });
  });

  it('an unreachable network is PLATFORM_UNREACHABLE', async () => {
    world = await startWorld();
    const image = storedMedia(world, 'image');
    const request = aRequest(world, userToken(world), 'image', [image]);
    await world.fake.stop();
    const outcome = await world.network.connector.publish(request);
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_UNREACHABLE' });
    world = { ...world, stop: () => world.urls.stop() };
  });
});
