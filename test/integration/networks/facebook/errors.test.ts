import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { graphError } from '../../../../infra/fake-networks/facebook/index.js';
import { aRequest, type FacebookWorld, PAGE, startWorld, storedMedia, USER } from './facebook-world.js';

describe('Facebook errors, mapped to our codes (the raw body never passed on)', () => {
  let world: FacebookWorld;
  beforeEach(async () => {
    world = await startWorld({ reelsPerDay: 1 });
  });
  afterEach(async () => {
    await world.stop();
  });

  const publish = (request: Parameters<FacebookWorld['network']['connector']['publish']>[0]) =>
    world.network.connector.publish(request);

  it('a Page token Meta refuses (the person changed password: 190/460) → auth_rejected: the Page must be reconnected', async () => {
    const token = world.pageToken();
    world.fake.control.revokeTokensOf(USER.userId);
    const outcome = await publish(aRequest(world, 'text', [], { accessToken: token }));
    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'auth_rejected',
      code: 'TOKEN_REJECTED',
      message: "Facebook refused the Page's access token at the post.",
      platformRawCode: '190/460',
    });
  });

  it('a user token in place of the Page token gets Meta’s "as the page itself" refusal → auth_rejected', async () => {
    const userToken = world.fake.control.issueUserToken(USER.userId);
    expect(await publish(aRequest(world, 'text', [], { accessToken: userToken }))).toMatchObject({
      failure: 'auth_rejected',
      code: 'TOKEN_REJECTED',
      platformRawCode: '200',
    });
  });

  it('a token without publish_video → PLATFORM_PERMISSION_DENIED for a video', async () => {
    const token = world.fake.control.issuePageToken(PAGE.pageId, {
      scopes: ['pages_show_list', 'pages_manage_posts'],
    });
    const video = storedMedia(world, 'video');
    expect(await publish(aRequest(world, 'video', [video], { accessToken: token }))).toMatchObject({
      failure: 'permanent',
      code: 'PLATFORM_PERMISSION_DENIED',
    });
  });

  it('the same text twice in a row → 506 DUPLICATE_CONTENT, and nothing posted the second time', async () => {
    expect((await publish(aRequest(world, 'text'))).kind).toBe('published');
    expect(await publish(aRequest(world, 'text'))).toMatchObject({
      failure: 'permanent',
      code: 'DUPLICATE_CONTENT',
      platformRawCode: '506',
    });
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('a link Meta cannot read (1609005) or a facebook.com link (1609008) → LINK_PREVIEW_FAILED', async () => {
    for (const [link, raw] of [
      ['https://gone.invalid/page', '1609005'],
      ['https://www.facebook.com/somepage', '100/1609008'],
    ] as const) {
      expect(
        await publish(
          aRequest(world, 'text', [], { postOverrides: { platformOptions: { facebook: { link } } } }),
        ),
      ).toMatchObject({ failure: 'permanent', code: 'LINK_PREVIEW_FAILED', platformRawCode: raw });
    }
  });

  it('Page throttling (32) waits what X-Business-Use-Case-Usage says; 368 waits an hour', async () => {
    const usage = JSON.stringify({
      [USER.pages[0]?.pageId ?? '']: [{ type: 'pages', call_count: 100, estimated_time_to_regain_access: 7 }],
    });
    world.fake.control.inject('feed', {
      kind: 'reply',
      reply: graphError(32, 'Page request limit reached', {
        headers: { 'x-business-use-case-usage': usage },
      }),
    });
    expect(await publish(aRequest(world, 'text'))).toMatchObject({
      failure: 'rate_limited',
      code: 'RATE_LIMITED',
      retryAfterSeconds: 420,
      platformRawCode: '32',
    });
    world.fake.control.inject('feed', {
      kind: 'reply',
      reply: graphError(368, 'Temporarily blocked', { subcode: 1390008 }),
    });
    expect(await publish(aRequest(world, 'text'))).toMatchObject({
      failure: 'rate_limited',
      code: 'TEMPORARILY_BLOCKED',
      retryAfterSeconds: 3600,
      platformRawCode: '368/1390008',
    });
  });

  it('posting past a burst: the fake’s own 368 reaches the connector as TEMPORARILY_BLOCKED', async () => {
    await world.stop();
    world = await startWorld({ burstPerMinute: 2 });
    for (const text of ['one', 'two'])
      expect((await publish(aRequest(world, 'text', [], { postOverrides: { content: text } }))).kind).toBe(
        'published',
      );
    expect(await publish(aRequest(world, 'text', [], { postOverrides: { content: 'three' } }))).toMatchObject(
      {
        code: 'TEMPORARILY_BLOCKED',
      },
    );
  });

  it('Meta’s server errors (code 1, 2, a 5xx) are transient; policy refusals are permanent; action required is said', async () => {
    for (const [reply, failure, code] of [
      [graphError(2, 'Service temporarily unavailable'), 'transient', 'PLATFORM_ERROR'],
      [graphError(1, 'An unknown error occurred'), 'transient', 'PLATFORM_ERROR'],
      [
        graphError(368, 'Against our Community Standards', { subcode: 1346003 }),
        'permanent',
        'PLATFORM_REJECTED_POLICY',
      ],
      [
        graphError(200, 'Confirm your identity', { subcode: 4854002 }),
        'permanent',
        'PLATFORM_ACTION_REQUIRED',
      ],
      [graphError(100, 'Invalid parameter'), 'permanent', 'PLATFORM_REJECTED'],
    ] as const) {
      world.fake.control.inject('feed', { kind: 'reply', reply });
      const outcome = await publish(aRequest(world, 'text'));
      expect(outcome).toMatchObject({ kind: 'failed', failure, code });
      expect(JSON.stringify(outcome)).not.toContain(
        String((reply.json as { error: { message: string } }).error.message),
      );
    }
  });

  it('the Page’s 30 reels a day (here 1): the next reel’s start is refused → RATE_LIMITED', async () => {
    const first = storedMedia(world, 'video');
    const outcome = await publish(aRequest(world, 'reel', [first]));
    expect(outcome.kind).toBe('pending');
    const second = storedMedia(world, 'video');
    expect(await publish(aRequest(world, 'reel', [second]))).toMatchObject({
      failure: 'rate_limited',
      code: 'RATE_LIMITED',
      platformRawCode: '4',
    });
  });

  it('a connection refused before anything was sent is a certain failure (PLATFORM_UNREACHABLE)', async () => {
    const request = aRequest(world, 'text');
    await world.stop();
    expect(await publish(request)).toMatchObject({
      kind: 'failed',
      failure: 'transient',
      code: 'PLATFORM_UNREACHABLE',
    });
    world = await startWorld();
  });
});
