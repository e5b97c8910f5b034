import { afterEach, describe, expect, it } from 'vitest';
import { linkedInError } from '../../../../infra/fake-networks/linkedin/index.js';
import { LINKEDIN_RATE_LIMIT_RETRY_SECONDS } from '../../../../shared/networks/linkedin/errors.js';
import { makeLinkedInNetwork } from '../../../../shared/networks/linkedin/index.js';
import { readProgress } from '../../../../shared/networks/linkedin/progress.js';
import type { PublishOutcome } from '../../../../shared/ports/connector.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import {
  aPost,
  aRequest,
  type LinkedInWorld,
  memberToken,
  patternBytes,
  startWorld,
  storedMedia,
} from './linkedin-world.js';

/** LinkedIn's own words: the outcome's message is ours and never carries them. */
const THEIR_WORDS = 'a sentence only LinkedIn would write';

function expectOurMessage(outcome: PublishOutcome): void {
  expect('message' in outcome && outcome.message).toBeTruthy();
  expect(JSON.stringify(outcome)).not.toContain(THEIR_WORDS);
}

describe('LinkedIn error mapping against the fake', () => {
  let world: LinkedInWorld;
  afterEach(() => world.stop());

  it.each([
    [
      'an invalid access token (65600)',
      linkedInError(401, THEIR_WORDS, { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' }),
      { failure: 'auth_rejected', code: 'TOKEN_REJECTED', platformRawCode: '65600' },
    ],
    [
      'a revoked access token (65601)',
      linkedInError(401, THEIR_WORDS, { serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN' }),
      { failure: 'auth_rejected', code: 'TOKEN_REJECTED', platformRawCode: '65601' },
    ],
    [
      'throttling (429, no headers)',
      linkedInError(429, THEIR_WORDS),
      {
        failure: 'rate_limited',
        code: 'RATE_LIMITED',
        platformRawCode: '429',
        retryAfterSeconds: LINKEDIN_RATE_LIMIT_RETRY_SECONDS,
      },
    ],
    [
      'throttling with a Retry-After LinkedIn might add',
      { ...linkedInError(429, THEIR_WORDS), headers: { 'retry-after': '42' } },
      { failure: 'rate_limited', code: 'RATE_LIMITED', retryAfterSeconds: 42 },
    ],
    [
      'a duplicate (422 DUPLICATE_POST)',
      linkedInError(422, `${THEIR_WORDS} Content is a duplicate of urn:li:share:1`, {
        inputErrors: [{ code: 'DUPLICATE_POST' }],
      }),
      { failure: 'permanent', code: 'DUPLICATE_CONTENT', platformRawCode: 'DUPLICATE_POST' },
    ],
    [
      'a missing permission (403, 100)',
      linkedInError(403, THEIR_WORDS, { serviceErrorCode: 100, code: 'ACCESS_DENIED' }),
      { failure: 'permanent', code: 'PLATFORM_PERMISSION_DENIED', platformRawCode: '100' },
    ],
    [
      'another validation error (422)',
      linkedInError(422, THEIR_WORDS, { inputErrors: [{ code: 'INVALID_VALUE' }] }),
      { failure: 'permanent', code: 'PLATFORM_REJECTED', platformRawCode: 'INVALID_VALUE' },
    ],
    [
      'a server error (500)',
      linkedInError(500, THEIR_WORDS),
      { failure: 'transient', code: 'PLATFORM_ERROR', platformRawCode: '500' },
    ],
    [
      'an unavailable gateway without a body (503)',
      { status: 503 },
      { failure: 'transient', code: 'PLATFORM_ERROR', platformRawCode: '503' },
    ],
  ])('maps %s on the post', async (_, reply, expected) => {
    world = await startWorld();
    world.fake.control.failNext('posts.create', { kind: 'reply', reply });

    const outcome = await world.network.connector.publish(aRequest(world, memberToken(world)));

    expect(outcome).toMatchObject({ kind: 'failed', ...expected });
    expectOurMessage(outcome);
    expect(world.fake.control.posts()).toHaveLength(0);
  });

  it('maps a real duplicate: the same text posted twice by the same member', async () => {
    world = await startWorld();
    const token = memberToken(world);
    await world.network.connector.publish(aRequest(world, token));

    const again = await world.network.connector.publish(
      aRequest(world, token, { post: aPost({ postId: 'pst_other' }) }),
    );

    expect(again).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'DUPLICATE_CONTENT' });
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('maps an access token LinkedIn sees as expired to a refused token, so the worker refreshes it', async () => {
    world = await startWorld();
    const token = memberToken(world);
    world.fake.control.expireAccessToken(token);

    const outcome = await world.network.connector.publish(aRequest(world, token));

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'auth_rejected', platformRawCode: '65602' });
  });

  it('maps a sunset LinkedIn-Version (426) to a permanent failure naming it', async () => {
    world = await startWorld({ activeVersions: ['202608'] });

    const outcome = await world.network.connector.publish(aRequest(world, memberToken(world)));

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_VERSION_UNSUPPORTED',
      platformRawCode: 'NONEXISTENT_VERSION',
    });
  });

  it('maps a video LinkedIn could not process (PROCESSING_FAILED) to a permanent failure', async () => {
    world = await startWorld({ videoPartBytes: 1000, processingChecks: { video: 0 } });
    world.fake.control.failProcessing('video');
    const video = storedMedia(world.bytes, 'video', patternBytes(1500));
    const post = aPost({ postType: 'video', media: [video.ref] });

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), { post, media: [video.delivered] }),
    );

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_PROCESSING_FAILED',
      platformRawCode: 'PROCESSING_FAILED',
    });
    expect(world.fake.control.posts()).toHaveLength(0);
  });

  it('maps a file LinkedIn refuses as too large (413) to MEDIA_TOO_LARGE', async () => {
    world = await startWorld({ maxBytes: { video: 1000 } });
    const video = storedMedia(world.bytes, 'video', patternBytes(1500));
    const post = aPost({ postType: 'video', media: [video.ref] });

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), { post, media: [video.delivered] }),
    );

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_TOO_LARGE',
      platformRawCode: '413',
    });
    expect(world.bytes.ranges).toHaveLength(0);
  });

  it('does not send a video over LinkedIn’s 500 MB at all', async () => {
    world = await startWorld();
    const video = storedMedia(world.bytes, 'video', patternBytes(10), { sizeBytes: 501 * 1024 * 1024 });
    const post = aPost({ postType: 'video', media: [video.ref] });

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), { post, media: [video.delivered] }),
    );

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'MEDIA_TOO_LARGE' });
    expect(world.fake.control.requests().filter((r) => r.endpoint === 'videos.initialize')).toHaveLength(0);
  });

  it('keeps the images uploaded before a failure, so the retry uploads only the rest and posts once', async () => {
    world = await startWorld();
    const images = [1, 2, 3].map((n) => storedMedia(world.bytes, 'image', patternBytes(700, n)));
    const post = aPost({ postType: 'carousel', media: images.map((i) => i.ref) });
    const token = memberToken(world);
    const media = images.map((i) => i.delivered);
    // Images 1 and 2 go through; the third upload's PUT fails with a server error.
    world.fake.control.failNext('images.upload', { kind: 'pass' }, 2);
    world.fake.control.failNext('images.upload', { kind: 'reply', reply: linkedInError(500, THEIR_WORDS) });
    const first = await world.network.connector.publish(aRequest(world, token, { post, media }));
    expect(first).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_ERROR' });
    const progress = first.kind === 'failed' ? first.progress : undefined;
    const kept = readProgress(progress).media?.map((item) => item.urn);
    expect(kept).toHaveLength(2);

    const second = await world.network.connector.publish(
      aRequest(world, token, { post, media, progress, attempt: 2 }),
    );

    expect(second.kind).toBe('published');
    const used = world.fake.control.posts()[0]?.content?.multiImage?.images.map((i) => i.id);
    expect(used?.slice(0, 2)).toEqual(kept);
    expect(world.fake.control.requests().filter((r) => r.endpoint === 'images.upload')).toHaveLength(4);
  });

  it('reports LinkedIn unreachable before anything was sent as a transient failure, not an unknown outcome', async () => {
    world = await startWorld();
    const token = memberToken(world);
    const closed = await startWorld();
    await closed.stop();
    const unreachable = makeLinkedInNetwork({
      endpoints: {
        ...NETWORK_ENDPOINT_DEFAULTS,
        LINKEDIN_API_URL: closed.fake.apiUrl,
        LINKEDIN_OAUTH_URL: closed.fake.oauthUrl,
      },
      appCredentials: async () => undefined,
    });

    const outcome = await unreachable.connector.publish(aRequest(world, token));

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_UNREACHABLE' });
  });

  it('reports a connection dropped during a media upload as a transient failure that keeps what was done', async () => {
    world = await startWorld();
    const image = storedMedia(world.bytes, 'image', patternBytes(900));
    const post = aPost({ postType: 'image', media: [image.ref] });
    world.fake.control.failNext('images.initialize', { kind: 'reset' });

    const outcome = await world.network.connector.publish(
      aRequest(world, memberToken(world), { post, media: [image.delivered] }),
    );

    expect(outcome).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_NO_ANSWER' });
    expect(world.fake.control.posts()).toHaveLength(0);
  });
});
