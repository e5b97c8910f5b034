import { afterEach, describe, expect, it } from 'vitest';
import type { LookupRequest, PublishOutcome, PublishRequest } from '../../../../shared/ports/connector.js';
import type { MediaUrls } from '../../../../shared/ports/media-urls.js';
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
const mediaUrls: MediaUrls = { presignGet: async (key) => `https://media.example.com/${key}` };
const TEXT_NOT_SENT = {
  code: 'TEXT_NOT_SENT_TO_INBOX',
  message: expect.stringContaining('no caption'),
};

/** platformOptions.tiktok.mode inbox (docs/networks.md, TikTok): drafts for the creator's inbox. */
describe("TikTok drafts in the creator's inbox, against the fake", () => {
  let world: TikTokWorld;
  afterEach(() => world.stop());

  const endpoints = () => world.fake.control.seen().map((seen) => seen.endpoint);

  it('uploads a video to the inbox with source_info only, no creator check, and ends awaiting_creator with the text left out', async () => {
    world = await startWorld();
    const content = patternBytes(3 * KB);
    const post = aPost({ content: 'Dance #fyp' }, { mode: 'inbox' });
    const request = aRequest(world, creatorToken(world), {
      post,
      media: [stored(world.bytes, 'video', content)],
    });

    const { outcome, rounds } = await publishUntilSettled(world, request);

    expect(rounds.map((round) => round.kind)).toEqual(['pending', 'awaiting_creator']);
    expect(outcome).toEqual({ kind: 'awaiting_creator', warnings: [TEXT_NOT_SENT] });
    const [publish] = world.fake.control.publishes();
    expect(publish).toMatchObject({ mode: 'inbox', status: 'SEND_TO_USER_INBOX', postInfo: {} });
    expect(publish?.sourceInfo).toEqual({
      source: 'FILE_UPLOAD',
      video_size: 3 * KB,
      chunk_size: 3 * KB,
      total_chunk_count: 1,
    });
    expect(Buffer.concat(publish?.bytes ?? [])).toEqual(Buffer.from(content));
    expect(endpoints()).toEqual(['inbox_video_init', 'upload', 'status', 'status']);
  });

  it('gives no warning for a video draft without text', async () => {
    world = await startWorld({ settings: { processingPolls: 0 } });
    const request = aRequest(world, creatorToken(world), {
      post: aPost({ content: '' }, { mode: 'inbox' }),
      media: [stored(world.bytes, 'video', patternBytes(3 * KB))],
    });

    const { outcome } = await publishUntilSettled(world, request);

    expect(outcome).toEqual({ kind: 'awaiting_creator' });
  });

  it('sends photos as MEDIA_UPLOAD with the text as description and no privacy, interactions or music', async () => {
    world = await startWorld({ settings: { processingPolls: 0 } });
    const photos = [
      stored(world.bytes, 'image', patternBytes(KB, 1)),
      stored(world.bytes, 'image', patternBytes(KB, 2)),
    ];
    const request = aRequest(world, creatorToken(world), {
      post: aPost({ postType: 'carousel', content: 'Two photos' }, { mode: 'inbox' }),
      media: photos,
      mediaUrls,
    });

    const { outcome } = await publishUntilSettled(world, request);

    expect(outcome).toEqual({ kind: 'awaiting_creator' });
    const [publish] = world.fake.control.publishes();
    expect(publish).toMatchObject({ kind: 'photo', mode: 'inbox', status: 'SEND_TO_USER_INBOX' });
    expect(publish?.postInfo).toEqual({ description: 'Two photos' });
    expect(endpoints()).toEqual(['content_init', 'status']);
  });

  it('fails INBOX_SCOPE_MISSING, permanent, with a reconnect message, when the account did not grant video.upload', async () => {
    world = await startWorld();
    const token = world.fake.control.issueToken(undefined, ['user.info.basic', 'video.publish']);
    const video = aRequest(world, token, {
      post: aPost({}, { mode: 'inbox' }),
      media: [stored(world.bytes, 'video', patternBytes(3 * KB))],
    });
    const photos = aRequest(world, token, {
      post: aPost({ postType: 'carousel' }, { mode: 'inbox' }),
      media: [stored(world.bytes, 'image', patternBytes(KB, 1))],
      mediaUrls,
    });

    for (const request of [video, photos]) {
      expect(await world.network.connector.publish(request)).toMatchObject({
        kind: 'failed',
        failure: 'permanent',
        code: 'INBOX_SCOPE_MISSING',
        platformRawCode: 'scope_not_authorized',
        message: expect.stringContaining('Reconnect the TikTok account'),
      });
    }
    expect(world.fake.control.publishes()).toEqual([]);
  });

  it('publishes a direct photo post with auto_add_music, and a direct one without video.upload still works', async () => {
    world = await startWorld({ settings: { processingPolls: 0 } });
    const token = world.fake.control.issueToken(undefined, ['user.info.basic', 'video.publish']);
    const request = aRequest(world, token, {
      post: aPost(
        { postType: 'carousel', content: 'With music' },
        { privacyLevel: 'PUBLIC_TO_EVERYONE', autoAddMusic: true },
      ),
      media: [stored(world.bytes, 'image', patternBytes(KB, 1))],
      mediaUrls,
    });

    const { outcome } = await publishUntilSettled(world, request);

    expect(outcome.kind).toBe('published');
    const [publish] = world.fake.control.publishes();
    expect(publish).toMatchObject({ mode: 'direct', status: 'PUBLISH_COMPLETE' });
    expect(publish?.postInfo).toMatchObject({ auto_add_music: true, privacy_level: 'PUBLIC_TO_EVERYONE' });
  });

  it('never sends auto_add_music with a video, even when a stored post asks for it (TikTok would refuse it)', async () => {
    world = await startWorld({ settings: { processingPolls: 0 } });
    const request = aRequest(world, creatorToken(world), {
      post: aPost({}, { privacyLevel: 'SELF_ONLY', autoAddMusic: true }),
      media: [stored(world.bytes, 'video', patternBytes(3 * KB))],
    });

    const { outcome } = await publishUntilSettled(world, request);

    expect(outcome.kind).toBe('published');
    expect(world.fake.control.publishes()[0]?.postInfo).not.toHaveProperty('auto_add_music');
  });

  describe('the fake refuses what TikTok documents it refuses', () => {
    const call = (path: string, token: string, body: unknown) =>
      fetch(`${world.fake.apiUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
        body: JSON.stringify(body),
      }).then(async (response) => ({
        status: response.status,
        code: ((await response.json()) as { error: { code: string } }).error.code,
      }));
    const photoBody = (postMode: string, postInfo: Record<string, unknown>) => ({
      media_type: 'PHOTO',
      post_mode: postMode,
      post_info: postInfo,
      source_info: {
        source: 'PULL_FROM_URL',
        photo_cover_index: 0,
        photo_images: ['https://a.example/1.jpg'],
      },
    });

    it('auto_add_music only on a photo DIRECT_POST; post_info on the inbox video init; MEDIA_UPLOAD without video.upload', async () => {
      world = await startWorld();
      const full = creatorToken(world);
      const publishOnly = world.fake.control.issueToken(undefined, ['user.info.basic', 'video.publish']);
      const uploadOnly = world.fake.control.issueToken(undefined, ['user.info.basic', 'video.upload']);

      expect(
        await call(
          '/v2/post/publish/content/init/',
          full,
          photoBody('MEDIA_UPLOAD', { auto_add_music: true }),
        ),
      ).toEqual({ status: 400, code: 'invalid_params' });
      expect(
        await call('/v2/post/publish/inbox/video/init/', full, {
          post_info: { title: 'x' },
          source_info: { source: 'FILE_UPLOAD', video_size: 10, chunk_size: 10, total_chunk_count: 1 },
        }),
      ).toEqual({ status: 400, code: 'invalid_params' });
      expect(
        await call('/v2/post/publish/content/init/', publishOnly, photoBody('MEDIA_UPLOAD', {})),
      ).toEqual({ status: 401, code: 'scope_not_authorized' });
      expect(
        await call(
          '/v2/post/publish/content/init/',
          uploadOnly,
          photoBody('DIRECT_POST', {
            privacy_level: 'SELF_ONLY',
            brand_content_toggle: false,
            brand_organic_toggle: false,
          }),
        ),
      ).toEqual({ status: 401, code: 'scope_not_authorized' });
      expect(world.fake.control.publishes()).toEqual([]);
    });
  });

  describe('after an answer that never came', () => {
    const lookUp = (request: PublishRequest, outcome: PublishOutcome): LookupRequest => ({
      account: request.account,
      ...(request.credentials && { credentials: request.credentials }),
      post: request.post,
      clientReference: request.clientReference,
      ...(outcome.kind === 'unknown' && outcome.progress && { progress: outcome.progress }),
      signal: AbortSignal.timeout(5_000),
    });

    it('finds the video draft in the inbox by its publish id (found_awaiting_creator), never uploading it twice', async () => {
      world = await startWorld({ settings: { processingPolls: 0 } });
      const request = aRequest(world, creatorToken(world), {
        post: aPost({}, { mode: 'inbox' }),
        media: [stored(world.bytes, 'video', patternBytes(3 * KB))],
        signal: AbortSignal.timeout(1_000),
      });
      world.fake.control.failNext('upload', { kind: 'delayAfter', ms: 3_000 });
      const lost = await world.network.connector.publish(request);
      expect(lost).toMatchObject({ kind: 'unknown', progress: { uncertain: true } });

      const found = await world.network.connector.findPublished?.(lookUp(request, lost));

      expect(found).toEqual({ kind: 'found_awaiting_creator', warnings: [TEXT_NOT_SENT] });
      expect(endpoints().filter((endpoint) => endpoint === 'inbox_video_init')).toHaveLength(1);
    });

    it('answers not_found for a video whose init answer was lost (its bytes never left), unknown for photos', async () => {
      world = await startWorld();
      const video = aRequest(world, creatorToken(world), {
        post: aPost({}, { mode: 'inbox' }),
        media: [stored(world.bytes, 'video', patternBytes(3 * KB))],
        signal: AbortSignal.timeout(1_000),
      });
      world.fake.control.failNext('inbox_video_init', { kind: 'delayAfter', ms: 3_000 });
      const lostVideo = await world.network.connector.publish(video);
      const photos = aRequest(world, creatorToken(world), {
        post: aPost({ postType: 'carousel' }, { mode: 'inbox' }),
        media: [stored(world.bytes, 'image', patternBytes(KB, 1))],
        mediaUrls,
        signal: AbortSignal.timeout(1_000),
      });
      world.fake.control.failNext('content_init', { kind: 'delayAfter', ms: 3_000 });
      const lostPhotos = await world.network.connector.publish(photos);

      expect(lostVideo).toMatchObject({ kind: 'unknown' });
      expect(lostPhotos).toMatchObject({ kind: 'unknown' });
      expect(await world.network.connector.findPublished?.(lookUp(video, lostVideo))).toEqual({
        kind: 'not_found',
      });
      expect(await world.network.connector.findPublished?.(lookUp(photos, lostPhotos))).toMatchObject({
        kind: 'unknown',
      });
    });
  });
});
