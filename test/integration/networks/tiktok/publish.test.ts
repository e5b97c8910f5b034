import { afterEach, describe, expect, it } from 'vitest';
import type { MediaUrls } from '../../../../shared/ports/media-urls.js';
import {
  aPost,
  aRequest,
  CREATOR,
  creatorToken,
  patternBytes,
  publishUntilSettled,
  startWorld,
  stored,
  type TikTokWorld,
} from './tiktok-world.js';

const KB = 1024;

/** An MP4 whose movie header (mvhd, version 0) says it lasts `seconds`: ftyp, then moov with mvhd. */
function mp4OfSeconds(seconds: number): Uint8Array {
  const ftyp = Buffer.alloc(16);
  ftyp.writeUInt32BE(16, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  const mvhd = Buffer.alloc(108);
  mvhd.writeUInt32BE(108, 0);
  mvhd.write('mvhd', 4, 'latin1');
  mvhd.writeUInt32BE(1000, 20);
  mvhd.writeUInt32BE(seconds * 1000, 24);
  const moov = Buffer.alloc(8);
  moov.writeUInt32BE(8 + mvhd.length, 0);
  moov.write('moov', 4, 'latin1');
  return Buffer.concat([ftyp, moov, mvhd, Buffer.alloc(2 * KB)]);
}

describe('TikTok publishing against the fake', () => {
  let world: TikTokWorld;
  afterEach(() => world.stop());

  it('posts a small video as one chunk, polls while TikTok processes it, and answers the public post and its URL', async () => {
    world = await startWorld();
    const content = patternBytes(3 * KB);
    const video = stored(world.bytes, 'video', content);
    const request = aRequest(world, creatorToken(world), { media: [video] });
    const { outcome, rounds } = await publishUntilSettled(world, request);
    expect(rounds.map((r) => r.kind)).toEqual(['pending', 'published']);
    expect(rounds[0]).toMatchObject({ kind: 'pending', stage: 'processing', checkAfterSeconds: 10 });
    const [publish] = world.fake.control.publishes();
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: publish?.postId,
      platformPostUrl: `https://www.tiktok.com/@${CREATOR.username}/video/${publish?.postId}`,
    });
    expect(Buffer.concat(publish?.bytes ?? [])).toEqual(Buffer.from(content));
    expect(publish?.sourceInfo).toEqual({
      source: 'FILE_UPLOAD',
      video_size: 3 * KB,
      chunk_size: 3 * KB,
      total_chunk_count: 1,
    });
    // creator_info comes before the init, as TikTok requires.
    const endpoints = world.fake.control.seen().map((s) => s.endpoint);
    expect(endpoints.slice(0, 3)).toEqual(['creator_info', 'video_init', 'upload']);
  });

  it('keeps a post id above 2^53, sent by TikTok as a bare JSON number, digit for digit in the id and the URL', async () => {
    world = await startWorld();
    // An odd 19-digit id: no float64 is equal to it, so a JSON number read as one changes it.
    const postId = '7351234567890123457';
    world.fake.control.nextPostIds(postId);
    const video = stored(world.bytes, 'video', patternBytes(2 * KB));
    const { outcome } = await publishUntilSettled(
      world,
      aRequest(world, creatorToken(world), { media: [video] }),
    );
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: postId,
      platformPostUrl: `https://www.tiktok.com/@${CREATOR.username}/video/${postId}`,
    });
  });

  it('refuses a video longer than the creator may post after creator_info and before any init or upload, which TikTok would refuse only once it has the file', async () => {
    // Prepare: a 700 s MP4 (its movie header says so), the creator's longest is 600 s.
    world = await startWorld({ settings: { processingPolls: 0 } });
    world.fake.control.updateCreator(CREATOR.openId, { maxVideoPostDurationSec: 600 });
    const video = stored(world.bytes, 'video', mp4OfSeconds(700));
    if (video.stored) video.stored.durationSeconds = 700;

    // Act
    const outcome = await world.network.connector.publish(
      aRequest(world, creatorToken(world), { media: [video] }),
    );

    // Assess
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'MEDIA_DURATION_INVALID' });
    expect(world.fake.control.seen().map((s) => s.endpoint)).toEqual(['creator_info']);
    expect(world.fake.control.publishes()).toEqual([]);
  });

  it('leaves a video of unknown length to TikTok, which fails it duration_check_failed once uploaded, as the fake does', async () => {
    world = await startWorld({ settings: { processingPolls: 0 } });
    world.fake.control.updateCreator(CREATOR.openId, { maxVideoPostDurationSec: 600 });
    const video = stored(world.bytes, 'video', mp4OfSeconds(700));
    const { outcome } = await publishUntilSettled(
      world,
      aRequest(world, creatorToken(world), { media: [video] }),
    );
    expect(outcome).toMatchObject({
      kind: 'failed',
      code: 'MEDIA_DURATION_INVALID',
      platformRawCode: 'duration_check_failed',
    });
  });

  it('sends the caption and every option as TikTok names them, with what the creator turned off kept off', async () => {
    world = await startWorld();
    world.fake.control.updateCreator(CREATOR.openId, { stitchDisabled: true });
    const video = stored(world.bytes, 'video', patternBytes(2 * KB));
    const post = aPost(
      { content: 'Caption with #tag @friend' },
      {
        privacyLevel: 'MUTUAL_FOLLOW_FRIENDS',
        disableDuet: true,
        disableComment: false,
        brandContentToggle: true,
        brandOrganicToggle: false,
        isAiGenerated: true,
      },
    );
    await publishUntilSettled(world, aRequest(world, creatorToken(world), { post, media: [video] }));
    expect(world.fake.control.publishes()[0]?.postInfo).toEqual({
      title: 'Caption with #tag @friend',
      privacy_level: 'MUTUAL_FOLLOW_FRIENDS',
      disable_duet: true,
      disable_comment: false,
      disable_stitch: true,
      brand_content_toggle: true,
      brand_organic_toggle: false,
      is_aigc: true,
    });
  });

  it('uploads a larger video in sequential chunks with Content-Range, the last absorbing the remainder, reading the bucket a chunk at a time', async () => {
    world = await startWorld();
    const size = 35 * KB + 123;
    const content = patternBytes(size);
    const video = stored(world.bytes, 'video', content);
    const { outcome } = await publishUntilSettled(
      world,
      aRequest(world, creatorToken(world), { media: [video] }),
    );
    expect(outcome.kind).toBe('published');
    const [publish] = world.fake.control.publishes();
    expect(publish?.sourceInfo).toMatchObject({ chunk_size: 10 * KB, total_chunk_count: 3 });
    expect(
      world.fake.control
        .seen()
        .filter((s) => s.endpoint === 'upload')
        .map((s) => s.contentRange),
    ).toEqual([
      `bytes 0-${10 * KB - 1}/${size}`,
      `bytes ${10 * KB}-${20 * KB - 1}/${size}`,
      `bytes ${20 * KB}-${size - 1}/${size}`,
    ]);
    expect(Buffer.concat(publish?.bytes ?? [])).toEqual(Buffer.from(content));
    expect(world.bytes.ranges.map((r) => r.end - r.start)).toEqual([10 * KB, 10 * KB, 15 * KB + 123]);
    expect(world.bytes.streams).toEqual([]);
  });

  it('sends a file between the minimum and the preferred chunk size as one chunk of its own size', async () => {
    world = await startWorld();
    const video = stored(world.bytes, 'video', patternBytes(7 * KB));
    const { outcome } = await publishUntilSettled(
      world,
      aRequest(world, creatorToken(world), { media: [video] }),
    );
    expect(outcome.kind).toBe('published');
    expect(world.fake.control.publishes()[0]?.sourceInfo).toMatchObject({
      video_size: 7 * KB,
      chunk_size: 7 * KB,
      total_chunk_count: 1,
    });
  });

  it('hands an upload over to the next invocation after its time budget, which continues at the next chunk without a second init', async () => {
    let clock = Date.parse('2026-11-23T10:00:00Z');
    world = await startWorld({}, { now: () => clock, uploadBudgetMs: 30_000 });
    const size = 45 * KB;
    const content = patternBytes(size);
    const video = stored(world.bytes, 'video', content);
    const bytes = world.bytes;
    // Each chunk read takes 20 s of the invocation's clock.
    const slowBytes = {
      readRange: async (key: string, start: number, end: number) => {
        clock += 20_000;
        return bytes.readRange(key, start, end);
      },
      stream: bytes.stream.bind(bytes),
    };
    const { outcome, rounds } = await publishUntilSettled(
      world,
      aRequest(world, creatorToken(world), { media: [video], bytes: slowBytes }),
    );
    // Two chunks (40 s) in the first invocation, the last two in the second.
    expect(rounds.map((r) => (r.kind === 'pending' ? r.stage : r.kind))).toEqual([
      'uploading',
      'processing',
      'published',
    ]);
    expect(rounds[0]).toMatchObject({
      progress: { upload: { next: 2, totalChunks: 4 } },
      checkAfterSeconds: 5,
    });
    expect(outcome.kind).toBe('published');
    expect(world.fake.control.seen().filter((s) => s.endpoint === 'video_init')).toHaveLength(1);
    expect(Buffer.concat(world.fake.control.publishes()[0]?.bytes ?? [])).toEqual(Buffer.from(content));
  });

  it('names a SELF_ONLY post, which never gets a public id, by its publish id and links the profile', async () => {
    world = await startWorld();
    const video = stored(world.bytes, 'video', patternBytes(KB));
    const post = aPost({}, { privacyLevel: 'SELF_ONLY' });
    const { outcome } = await publishUntilSettled(
      world,
      aRequest(world, creatorToken(world), { post, media: [video] }),
    );
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: world.fake.control.publishes()[0]?.publishId,
      platformPostUrl: `https://www.tiktok.com/@${CREATOR.username}`,
    });
  });

  it('posts photos by PULL_FROM_URL from presigned URLs of the stored photos, with the text as the description', async () => {
    world = await startWorld();
    const photos = [
      stored(world.bytes, 'image', patternBytes(KB, 1)),
      stored(world.bytes, 'image', patternBytes(KB, 2), { mimeType: 'image/webp' }),
    ];
    const presigned: { key: string; seconds: number }[] = [];
    const mediaUrls: MediaUrls = {
      presignGet: async (key, seconds) => {
        presigned.push({ key, seconds });
        return `https://media.example.com/${key}?X-Amz-Signature=abc`;
      },
    };
    const post = aPost(
      { postType: 'carousel', content: 'Two photos' },
      { privacyLevel: 'PUBLIC_TO_EVERYONE', disableComment: true },
    );
    const { outcome, rounds } = await publishUntilSettled(
      world,
      aRequest(world, creatorToken(world), { post, media: photos, mediaUrls }),
    );
    expect(rounds[0]).toMatchObject({ kind: 'pending', stage: 'processing' });
    const [publish] = world.fake.control.publishes();
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: publish?.postId,
      platformPostUrl: `https://www.tiktok.com/@${CREATOR.username}/photo/${publish?.postId}`,
    });
    expect(presigned.map((p) => p.seconds)).toEqual([3600, 3600]);
    expect(publish?.sourceInfo).toEqual({
      source: 'PULL_FROM_URL',
      photo_cover_index: 0,
      photo_images: presigned.map((p) => `https://media.example.com/${p.key}?X-Amz-Signature=abc`),
    });
    expect(publish?.postInfo).toMatchObject({
      description: 'Two photos',
      disable_comment: true,
      privacy_level: 'PUBLIC_TO_EVERYONE',
    });
  });

  it('sends a photo post only the post_info fields TikTok lists for photos: no AI label, no duet or stitch, even when the post asks for them', async () => {
    world = await startWorld();
    const photos = [stored(world.bytes, 'image', patternBytes(KB, 1))];
    const mediaUrls: MediaUrls = { presignGet: async (key) => `https://media.example.com/${key}` };
    const post = aPost(
      { postType: 'carousel', content: 'An AI photo' },
      {
        privacyLevel: 'PUBLIC_TO_EVERYONE',
        isAiGenerated: true,
        disableDuet: true,
        brandOrganicToggle: true,
      },
    );
    const { outcome } = await publishUntilSettled(
      world,
      aRequest(world, creatorToken(world), { post, media: photos, mediaUrls }),
    );
    expect(outcome.kind).toBe('published');
    expect(world.fake.control.publishes()[0]?.postInfo).toEqual({
      description: 'An AI photo',
      privacy_level: 'PUBLIC_TO_EVERYONE',
      disable_comment: false,
      brand_content_toggle: false,
      brand_organic_toggle: true,
    });
  });

  it('refuses before any call what TikTok would refuse: PNG photos, a stored photo with no URL to give, mixed media', async () => {
    world = await startWorld();
    const token = creatorToken(world);
    const png = stored(world.bytes, 'image', patternBytes(KB), { mimeType: 'image/png' });
    const jpeg = stored(world.bytes, 'image', patternBytes(KB));
    const video = stored(world.bytes, 'video', patternBytes(KB));
    const carousel = aPost({ postType: 'carousel' });
    expect(
      await world.network.connector.publish(aRequest(world, token, { post: carousel, media: [png] })),
    ).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_UNSUPPORTED_FORMAT',
    });
    expect(
      await world.network.connector.publish(aRequest(world, token, { post: carousel, media: [video, jpeg] })),
    ).toMatchObject({
      kind: 'failed',
      code: 'PLATFORM_REJECTED',
    });
    expect(world.fake.control.seen()).toEqual([]);
    expect(
      await world.network.connector.publish(aRequest(world, token, { post: carousel, media: [jpeg] })),
    ).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_URL_UNAVAILABLE',
    });
    expect(world.fake.control.publishes()).toEqual([]);
  });

  it('fails a post without a privacy level (PRIVACY_LEVEL_REQUIRED) and one the creator does not offer (PRIVACY_LEVEL_NOT_OFFERED), posting nothing', async () => {
    world = await startWorld();
    const token = creatorToken(world);
    const video = stored(world.bytes, 'video', patternBytes(KB));
    const none = await world.network.connector.publish(
      aRequest(world, token, { post: aPost({}, { disableDuet: true }), media: [video] }),
    );
    expect(none).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'PRIVACY_LEVEL_REQUIRED' });
    expect(world.fake.control.seen()).toEqual([]);
    const notOffered = await world.network.connector.publish(
      aRequest(world, token, { post: aPost({}, { privacyLevel: 'FOLLOWER_OF_CREATOR' }), media: [video] }),
    );
    expect(notOffered).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PRIVACY_LEVEL_NOT_OFFERED',
    });
    expect(world.fake.control.publishes()).toEqual([]);
  });
});
