import { afterEach, describe, expect, it } from 'vitest';
import { googleError, startYouTubeFake } from '../../../../infra/fake-networks/youtube/index.js';
import { makeYouTubeNetwork } from '../../../../shared/networks/youtube/index.js';
import { secondsUntilPacificMidnight } from '../../../../shared/networks/youtube/limits.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import {
  aPost,
  aRequest,
  channelToken,
  KIB,
  patternBytes,
  startWorld,
  storedVideo,
  type YouTubeWorld,
} from './youtube-world.js';

describe('YouTube errors against the fake', () => {
  let world: YouTubeWorld;
  afterEach(() => world.stop());

  it('maps a refused access token to auth_rejected, so the worker refreshes once', async () => {
    world = await startWorld();
    const token = channelToken(world);
    world.fake.control.expireAccessToken(token);

    const outcome = await world.network.connector.publish(aRequest(world, token));

    expect(outcome).toEqual({
      kind: 'failed',
      failure: 'auth_rejected',
      code: 'TOKEN_REJECTED',
      message: "YouTube refused the account's access token at the video upload.",
      platformRawCode: 'authError',
    });
  });

  it("maps the project's used-up quota to rate_limited until midnight Pacific, without opening a session", async () => {
    world = await startWorld();
    world.fake.control.setQuotaUsed(9_000);
    const before = Date.now();

    const outcome = await world.network.connector.publish(aRequest(world, channelToken(world)));

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'rate_limited',
      code: 'RATE_LIMITED',
      platformRawCode: 'quotaExceeded',
      message: "The service's daily YouTube API quota is used up; it resets at midnight Pacific time.",
    });
    const expected = secondsUntilPacificMidnight(before);
    expect(outcome.kind === 'failed' && outcome.retryAfterSeconds).toBeGreaterThanOrEqual(expected - 5);
    expect(outcome.kind === 'failed' && outcome.retryAfterSeconds).toBeLessThanOrEqual(24 * 3600);
    expect(world.fake.control.sessions()).toEqual([]);
    expect(world.fake.control.quota().used).toBe(9_000);
  });

  it("maps the channel's 24-hour upload cap to rate_limited for a day", async () => {
    world = await startWorld({ uploadsPerDay: 0 });

    const outcome = await world.network.connector.publish(aRequest(world, channelToken(world)));

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'rate_limited',
      platformRawCode: 'uploadLimitExceeded',
      retryAfterSeconds: 86_400,
    });
  });

  it('maps metadata YouTube refuses to a permanent failure with its reason, and never passes its text on', async () => {
    world = await startWorld();
    // Past the rules (as a post stored before a rule change would be): the fake refuses the title.
    const post = aPost({ content: `${'x'.repeat(101)}\nbody` });

    const outcome = await world.network.connector.publish(aRequest(world, channelToken(world), { post }));

    expect(outcome).toEqual({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_REJECTED',
      message: "YouTube refused the video's title, description, tags or settings.",
      platformRawCode: 'invalidTitle',
    });
  });

  it('maps a token without the read scope to a permission failure at the processing check', async () => {
    world = await startWorld({ processingPolls: 0 });
    const token = channelToken(world, ['https://www.googleapis.com/auth/youtube.upload']);

    const outcome = await world.network.connector.publish(aRequest(world, token));

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_PERMISSION_DENIED',
      platformRawCode: 'insufficientPermissions',
      progress: { state: 'processing' },
    });
  });

  it.each([
    ['a server error', { status: 503, reason: 'backendError' }, 'transient', 'PLATFORM_ERROR'],
    ['short throttling', { status: 403, reason: 'rateLimitExceeded' }, 'rate_limited', 'RATE_LIMITED'],
    [
      'a suspended account',
      { status: 403, reason: 'authenticatedUserAccountSuspended' },
      'auth_revoked',
      'ACCOUNT_UNUSABLE',
    ],
    [
      'a forbidden privacy setting',
      { status: 403, reason: 'forbiddenPrivacySetting' },
      'permanent',
      'PLATFORM_REJECTED',
    ],
    ['another refusal', { status: 403, reason: 'forbidden' }, 'permanent', 'PLATFORM_PERMISSION_DENIED'],
  ])('maps %s at the session request', async (_, answer, failure, code) => {
    world = await startWorld();
    world.fake.control.failNext('upload.session', {
      kind: 'reply',
      reply: googleError(answer.status, answer.reason, 'Google says something we never show.'),
    });

    const outcome = await world.network.connector.publish(aRequest(world, channelToken(world)));

    expect(outcome).toMatchObject({ kind: 'failed', failure, code, platformRawCode: answer.reason });
    expect(outcome.kind === 'failed' && outcome.message).not.toMatch(/never show/);
  });

  it('answers pending to resume when YouTube fails with a server error mid-upload', async () => {
    world = await startWorld();
    world.fake.control.failNext('upload.put', { kind: 'pass' });
    world.fake.control.failNext('upload.put', {
      kind: 'reply',
      reply: googleError(503, 'backendError', 'x'),
    });

    const outcome = await world.network.connector.publish(aRequest(world, channelToken(world)));

    expect(outcome).toMatchObject({
      kind: 'pending',
      stage: 'upload_interrupted',
      progress: { state: 'uploading', offset: 256 * KIB },
    });
  });

  it('says a session request that never left is a transient failure, and one that got no answer too (a session alone makes no video)', async () => {
    const gone = await startYouTubeFake();
    await gone.stop();
    world = await startWorld();
    const unreachable = makeYouTubeNetwork({
      endpoints: { ...NETWORK_ENDPOINT_DEFAULTS, YOUTUBE_UPLOAD_URL: gone.uploadUrl },
      appCredentials: async () => undefined,
    });
    const notSent = await unreachable.connector.publish(aRequest(world, 'token'));
    expect(notSent).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_UNREACHABLE' });

    world.fake.control.failNext('upload.session', { kind: 'resetAfter' });
    const noAnswer = await world.network.connector.publish(aRequest(world, channelToken(world)));
    expect(noAnswer).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_NO_ANSWER' });
  });

  it('keeps the session when the media bucket fails mid-upload: a transient failure the retry resumes from', async () => {
    world = await startWorld();
    const token = channelToken(world);
    const video = storedVideo(world.bytes, patternBytes(600 * KIB));
    const reads = world.bytes.readRange.bind(world.bytes);
    let calls = 0;
    world.bytes.readRange = async (key, start, end) => {
      calls += 1;
      if (calls === 2) throw new Error('S3 is down');
      return reads(key, start, end);
    };

    const outcome = await world.network.connector.publish(aRequest(world, token, { media: [video] }));

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'transient',
      code: 'MEDIA_READ_FAILED',
      progress: { state: 'uploading', offset: 256 * KIB },
    });
  });

  it('refuses what it cannot upload before calling YouTube', async () => {
    world = await startWorld();
    const token = channelToken(world);
    const two = [
      storedVideo(world.bytes, patternBytes(KIB), 'med_1'),
      storedVideo(world.bytes, patternBytes(KIB), 'med_2'),
    ];
    expect(await world.network.connector.publish(aRequest(world, token, { media: two }))).toMatchObject({
      failure: 'permanent',
      code: 'PLATFORM_REJECTED',
    });
    const { credentials: _none, ...withoutToken } = aRequest(world, token);
    expect(await world.network.connector.publish(withoutToken)).toMatchObject({
      failure: 'auth_rejected',
      code: 'TOKEN_MISSING',
    });
    expect(world.fake.control.requests()).toEqual([]);
  });
});

describe('The YouTube quota reset', () => {
  it('places the quota reset at midnight in Los Angeles, daylight saving included', () => {
    // 23:00 PDT on 10 May is 06:00 UTC on the 11th: an hour left.
    expect(secondsUntilPacificMidnight(Date.parse('2026-05-11T06:00:00Z'))).toBe(3600);
    // 23:30 PST on 10 January is 07:30 UTC on the 11th: half an hour left.
    expect(secondsUntilPacificMidnight(Date.parse('2026-01-11T07:30:00Z'))).toBe(1800);
  });
});
