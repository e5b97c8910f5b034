import { afterEach, describe, expect, it } from 'vitest';
import type { PublishOutcome } from '../../../../shared/ports/connector.js';
import {
  aPost,
  aRequest,
  creatorToken,
  patternBytes,
  publishUntilSettled,
  startWorld,
  stored,
  type TikTokWorld,
} from './tiktok-world.js';

const KB = 1024;

describe('TikTok errors, as the worker sees them', () => {
  let world: TikTokWorld;
  afterEach(() => world.stop());

  const videoRequest = (token = creatorToken(world), size = 2 * KB) =>
    aRequest(world, token, { media: [stored(world.bytes, 'video', patternBytes(size))] });

  it.each([
    [401, 'access_token_invalid', 'auth_rejected', 'TOKEN_REJECTED'],
    [401, 'scope_not_authorized', 'permanent', 'PLATFORM_PERMISSION_DENIED'],
    [429, 'rate_limit_exceeded', 'rate_limited', 'RATE_LIMITED'],
    [403, 'spam_risk_too_many_posts', 'permanent', 'DAILY_QUOTA_EXCEEDED'],
    [403, 'spam_risk_user_banned_from_posting', 'permanent', 'ACCOUNT_BANNED_FROM_POSTING'],
    [403, 'spam_risk_text', 'permanent', 'CONTENT_REJECTED_AS_SPAM'],
    [403, 'reached_active_user_cap', 'rate_limited', 'APP_USER_CAP_REACHED'],
    [403, 'unaudited_client_can_only_post_to_private_accounts', 'permanent', 'APP_NOT_AUDITED'],
    [400, 'privacy_level_option_mismatch', 'permanent', 'PRIVACY_LEVEL_NOT_OFFERED'],
    [400, 'invalid_file_upload', 'permanent', 'MEDIA_REJECTED'],
    [400, 'invalid_params', 'permanent', 'PLATFORM_REJECTED'],
    [500, 'internal_error', 'transient', 'PLATFORM_ERROR'],
    [503, 'something_new', 'transient', 'PLATFORM_ERROR'],
  ])(
    'maps an init answered %i %s to %s %s, TikTok’s code as the raw code and our own message',
    async (status, code, failure, ours) => {
      world = await startWorld();
      world.fake.control.failNext('video_init', { kind: 'error', status, code });
      const outcome = await world.network.connector.publish(videoRequest());
      expect(outcome).toMatchObject({ kind: 'failed', failure, code: ours, platformRawCode: code });
      expect(outcome.kind === 'failed' && outcome.message).not.toContain('Injected');
      if (failure === 'rate_limited') {
        expect(outcome).toMatchObject({ retryAfterSeconds: expect.any(Number) });
      }
      expect(world.fake.control.publishes()).toEqual([]);
    },
  );

  it('maps an expired token at creator_info to auth_rejected, so the worker refreshes and tries again', async () => {
    world = await startWorld();
    const token = creatorToken(world);
    world.fake.control.expireAccessToken(token);
    expect(await world.network.connector.publish(videoRequest(token))).toMatchObject({
      kind: 'failed',
      failure: 'auth_rejected',
      code: 'TOKEN_REJECTED',
      platformRawCode: 'access_token_invalid',
    });
  });

  it('surfaces the creator’s daily cap at the fake’s real count as DAILY_QUOTA_EXCEEDED', async () => {
    world = await startWorld({ settings: { dailyPostCap: 1 } });
    const token = creatorToken(world);
    expect((await publishUntilSettled(world, videoRequest(token))).outcome.kind).toBe('published');
    expect(await world.network.connector.publish(videoRequest(token))).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'DAILY_QUOTA_EXCEEDED',
      platformRawCode: 'spam_risk_too_many_posts',
    });
  });

  it('keeps to 6 inits a minute per account: the seventh waits (rate_limited) without calling TikTok', async () => {
    world = await startWorld({ settings: { dailyPostCap: 100 } });
    const token = creatorToken(world);
    for (let i = 0; i < 6; i += 1) {
      expect((await world.network.connector.publish(videoRequest(token))).kind).toBe('pending');
    }
    const seventh = await world.network.connector.publish(videoRequest(token));
    expect(seventh).toMatchObject({ kind: 'failed', failure: 'rate_limited', code: 'RATE_LIMITED' });
    expect(seventh.kind === 'failed' && seventh.retryAfterSeconds).toBeGreaterThan(0);
    expect(world.fake.control.seen().filter((s) => s.endpoint === 'video_init')).toHaveLength(6);
    // Another account has its own minute.
    const other = aRequest(world, creatorToken(world), {
      account: { ...videoRequest(token).account, accountId: 'acc_other' },
      media: [stored(world.bytes, 'video', patternBytes(KB))],
    });
    expect((await world.network.connector.publish(other)).kind).toBe('pending');
  });

  it('waits a minute (pending) when TikTok refuses a status check for its per-minute limit, then carries on', async () => {
    world = await startWorld();
    const request = videoRequest();
    const first = await world.network.connector.publish(request);
    expect(first).toMatchObject({ kind: 'pending', stage: 'processing' });
    world.fake.control.failNext('status', { kind: 'error', status: 429, code: 'rate_limit_exceeded' });
    const progress = first.kind === 'pending' ? first.progress : undefined;
    const second = await world.network.connector.publish({ ...request, progress });
    expect(second).toMatchObject({
      kind: 'pending',
      stage: 'status_rate_limited',
      checkAfterSeconds: 60,
      progress,
    });
    const third = await world.network.connector.publish({ ...request, progress });
    expect(third.kind).toBe('published');
    expect(world.fake.control.seen().filter((s) => s.endpoint === 'video_init')).toHaveLength(1);
  });

  it('keeps to 30 status checks a minute per account: the next waits as pending without calling TikTok', async () => {
    world = await startWorld({ settings: { processingPolls: 1000 } });
    const request = videoRequest();
    let outcome = await world.network.connector.publish(request);
    const progress = outcome.kind === 'pending' ? outcome.progress : undefined;
    for (let i = 1; i < 30; i += 1) {
      outcome = await world.network.connector.publish({ ...request, ...(progress && { progress }) });
      expect(outcome).toMatchObject({ kind: 'pending', stage: 'processing' });
    }
    const over = await world.network.connector.publish({ ...request, ...(progress && { progress }) });
    expect(over).toMatchObject({ kind: 'pending', stage: 'status_rate_limited', progress });
    expect(over.kind === 'pending' && over.checkAfterSeconds).toBeGreaterThanOrEqual(5);
    expect(world.fake.control.seen().filter((s) => s.endpoint === 'status')).toHaveLength(30);
  });

  it('maps fail_reason of a FAILED publish, and forgets its publish id so a retry starts over', async () => {
    world = await startWorld();
    const expectations: [string, string, string][] = [
      ['file_format_check_failed', 'permanent', 'MEDIA_UNSUPPORTED_FORMAT'],
      ['duration_check_failed', 'permanent', 'MEDIA_DURATION_INVALID'],
      ['frame_rate_check_failed', 'permanent', 'MEDIA_FRAME_RATE_INVALID'],
      ['picture_size_check_failed', 'permanent', 'MEDIA_DIMENSIONS_INVALID'],
      ['internal', 'transient', 'PLATFORM_ERROR'],
      ['auth_removed', 'auth_revoked', 'TOKEN_REVOKED'],
      ['spam_risk_too_many_posts', 'permanent', 'DAILY_QUOTA_EXCEEDED'],
      ['something_else', 'permanent', 'MEDIA_PROCESSING_FAILED'],
    ];
    world.fake.control.updateSettings({
      dailyPostCap: 100,
      perMinute: { creator_info: 100, init: 100, status: 100 },
    });
    const token = creatorToken(world);
    for (const [reason, failure, code] of expectations) {
      world.fake.control.failNextPublish(reason);
      const request = aRequest(world, token, {
        account: { ...videoRequest(token).account, accountId: `acc_${reason}` },
        media: [stored(world.bytes, 'video', patternBytes(KB))],
      });
      const { outcome } = await publishUntilSettled(world, request);
      expect(outcome).toMatchObject({ kind: 'failed', failure, code, platformRawCode: reason });
      expect(outcome.kind === 'failed' && outcome.progress).not.toHaveProperty('publishId');
    }
  });

  it('resends from where TikTok stands after a chunk it refused out of order (416), without a second init', async () => {
    world = await startWorld();
    const content = patternBytes(25 * KB);
    const request = aRequest(world, creatorToken(world), { media: [stored(world.bytes, 'video', content)] });
    world.fake.control.failNext('upload', { kind: 'error', status: 416, code: 'range' });
    const first = await world.network.connector.publish(request);
    expect(first).toMatchObject({ kind: 'failed', failure: 'transient', code: 'MEDIA_UPLOAD_OUT_OF_SYNC' });
    const { outcome } = await publishUntilSettled(world, {
      ...request,
      progress: first.kind === 'failed' ? first.progress : undefined,
    });
    expect(outcome.kind).toBe('published');
    expect(world.fake.control.publishes()).toHaveLength(1);
    expect(Buffer.concat(world.fake.control.publishes()[0]?.bytes ?? [])).toEqual(Buffer.from(content));
  });

  it('starts over with a new init when the upload address is gone (404)', async () => {
    world = await startWorld();
    const request = videoRequest();
    world.fake.control.failNext('upload', { kind: 'error', status: 404, code: 'gone' });
    const first = await world.network.connector.publish(request);
    expect(first).toMatchObject({ kind: 'failed', failure: 'transient', code: 'MEDIA_UPLOAD_EXPIRED' });
    expect(first.kind === 'failed' && first.progress).not.toHaveProperty('publishId');
    const { outcome } = await publishUntilSettled(world, {
      ...request,
      progress: first.kind === 'failed' ? first.progress : undefined,
    });
    expect(outcome.kind).toBe('published');
    expect(world.fake.control.seen().filter((s) => s.endpoint === 'video_init')).toHaveLength(2);
  });

  it('refuses photos from a domain not verified for the app (url_ownership_unverified)', async () => {
    world = await startWorld({ settings: { verifiedUrlPrefixes: ['https://verified.example.com/'] } });
    const outcome: PublishOutcome = await world.network.connector.publish(
      aRequest(world, creatorToken(world), {
        post: aPost({ postType: 'carousel' }),
        media: [{ kind: 'image', url: 'https://elsewhere.example.com/a.jpg' }],
      }),
    );
    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_URL_UNVERIFIED',
      platformRawCode: 'url_ownership_unverified',
    });
  });

  it('fails transient PLATFORM_UNREACHABLE when TikTok cannot be reached', async () => {
    world = await startWorld();
    const request = videoRequest();
    await world.fake.stop();
    expect(await world.network.connector.publish(request)).toMatchObject({
      kind: 'failed',
      failure: 'transient',
      code: 'PLATFORM_UNREACHABLE',
    });
    world = await startWorld();
  });

  it('has no token: auth_rejected TOKEN_MISSING, nothing sent', async () => {
    world = await startWorld();
    const request = { ...videoRequest() };
    delete request.credentials;
    expect(await world.network.connector.publish(request)).toMatchObject({
      failure: 'auth_rejected',
      code: 'TOKEN_MISSING',
    });
    expect(world.fake.control.seen()).toEqual([]);
  });
});
