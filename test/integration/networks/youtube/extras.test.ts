import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { googleError } from '../../../../infra/fake-networks/youtube/index.js';
import type { PublishOutcome, PublishRequest } from '../../../../shared/ports/connector.js';
import {
  aPost,
  aRequest,
  CHANNEL,
  channelToken,
  jpegBytes,
  KIB,
  patternBytes,
  startWorld,
  storedImage,
  storedVideo,
  type YouTubeWorld,
} from './youtube-world.js';

const UPLOAD = 'https://www.googleapis.com/auth/youtube.upload';
const READONLY = 'https://www.googleapis.com/auth/youtube.readonly';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const HOUR_MS = 60 * 60 * 1000;

function warningCodes(outcome: PublishOutcome): string[] {
  return outcome.kind === 'published' ? (outcome.warnings ?? []).map((warning) => warning.code) : [];
}

function warningText(outcome: PublishOutcome, code: string): string {
  if (outcome.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return outcome.warnings?.find((warning) => warning.code === code)?.message ?? '';
}

describe('YouTube extras against the fake: scheduled publishing, thumbnail, playlist', () => {
  let world: YouTubeWorld;
  afterEach(() => world.stop());

  /** A post with these YouTube options, its video processed on the first status read. */
  async function publishWith(
    youtube: Record<string, unknown>,
    extra: Partial<PublishRequest> = {},
    token?: string,
  ): Promise<PublishOutcome> {
    const post = aPost({ platformOptions: { youtube: { title: 'Launch', ...youtube } } });
    const media = [storedVideo(world.bytes, patternBytes(300 * KIB))];
    return world.network.connector.publish(
      aRequest(world, token ?? channelToken(world), { post, media, ...extra }),
    );
  }

  describe('publishAt', () => {
    it('sends status.publishAt in UTC with a private video; the published post says it stays private until then', async () => {
      world = await startWorld({ processingPolls: 0 });
      const at = new Date(Date.now() + 2 * HOUR_MS);
      const withOffset = `${new Date(at.getTime() + 2 * HOUR_MS).toISOString().slice(0, 19)}+02:00`;

      const outcome = await publishWith({ publishAt: withOffset });

      const [video] = world.fake.control.videos();
      expect(video?.privacyStatus).toBe('private');
      expect(video?.publishAt).toBe(new Date(Date.parse(withOffset)).toISOString());
      expect(outcome).toMatchObject({ kind: 'published', platformPostId: video?.id });
      expect(warningCodes(outcome)).toEqual(['PRIVATE_UNTIL_PUBLISH_AT']);
      expect(warningText(outcome, 'PRIVATE_UNTIL_PUBLISH_AT')).toContain(video?.publishAt);
    });

    it('fails before opening a session when publishAt has passed by the time of the upload (nothing at YouTube)', async () => {
      world = await startWorld({ processingPolls: 0 });

      const outcome = await publishWith({ publishAt: new Date(Date.now() - 1000).toISOString() });

      expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'PUBLISH_AT_PASSED' });
      expect(world.fake.control.requests().filter((seen) => seen.endpoint === 'upload.session')).toEqual([]);
      expect(world.fake.control.videos()).toEqual([]);
    });

    it('the fake refuses a past publishAt on a private video (invalidPublishAt) and ignores one on a public video, as YouTube does', async () => {
      world = await startWorld({ processingPolls: 0 });
      const token = channelToken(world);
      const open = (status: Record<string, unknown>) =>
        fetch(`${world.fake.uploadUrl}/videos?uploadType=resumable&part=snippet,status`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'X-Upload-Content-Length': '10',
            'X-Upload-Content-Type': 'video/mp4',
          },
          body: JSON.stringify({ snippet: { title: 'T' }, status }),
        });

      const past = await open({ privacyStatus: 'private', publishAt: '2020-01-01T00:00:00Z' });
      const ignored = await open({
        privacyStatus: 'public',
        publishAt: new Date(Date.now() + HOUR_MS).toISOString(),
      });

      expect(past.status).toBe(400);
      expect(await past.json()).toMatchObject({ error: { errors: [{ reason: 'invalidPublishAt' }] } });
      expect(ignored.status).toBe(200);
    });
  });

  describe('thumbnail', () => {
    it('sets the custom thumbnail after processing (thumbnails.set, the stored image, 50 units) and publishes without a warning', async () => {
      world = await startWorld({ processingPolls: 0 });
      const image = jpegBytes(40 * KIB);
      const thumbnail = storedImage(world.bytes, image);

      const outcome = await publishWith({ thumbnail: { id: 'med_thumb1' } }, { optionMedia: { thumbnail } });

      const [video] = world.fake.control.videos();
      expect(outcome).toEqual({
        kind: 'published',
        platformPostId: video?.id,
        platformPostUrl: `https://www.youtube.com/watch?v=${video?.id}`,
      });
      expect(video?.thumbnail).toEqual({
        sha256: sha256(image),
        contentType: 'image/jpeg',
        size: image.length,
      });
      const [set] = world.fake.control.requests().filter((seen) => seen.endpoint === 'thumbnails.set');
      expect(set?.query).toEqual({ videoId: video?.id, uploadType: 'media' });
      // 1,600 the insert, 1 the status read, 50 the thumbnail.
      expect(world.fake.control.quota().used).toBe(1651);
    });

    it('publishes with THUMBNAIL_NOT_SET when YouTube does not allow the channel custom thumbnails (403 forbidden)', async () => {
      world = await startWorld({ processingPolls: 0 });
      world.fake.control.setCustomThumbnails(CHANNEL.id, false);
      const thumbnail = storedImage(world.bytes, jpegBytes(10 * KIB));

      const outcome = await publishWith({ thumbnail: { id: 'med_thumb1' } }, { optionMedia: { thumbnail } });

      expect(outcome.kind).toBe('published');
      expect(warningCodes(outcome)).toEqual(['THUMBNAIL_NOT_SET']);
      expect(warningText(outcome, 'THUMBNAIL_NOT_SET')).toMatch(/verified/);
      expect(world.fake.control.videos()[0]?.thumbnail).toBeUndefined();
    });

    it('does not send an image that is not a JPEG or PNG, or over 2 MB: published with THUMBNAIL_NOT_SET, no thumbnails.set', async () => {
      world = await startWorld({ processingPolls: 0 });
      const gif = storedImage(world.bytes, patternBytes(KIB), { mimeType: 'image/gif' });

      const outcome = await publishWith(
        { thumbnail: { id: 'med_thumb1' } },
        { optionMedia: { thumbnail: gif } },
      );

      expect(warningText(outcome, 'THUMBNAIL_NOT_SET')).toMatch(/not a JPEG or PNG/);
      const big = storedImage(world.bytes, jpegBytes(2 * 1024 * KIB + 1), { mediaId: 'med_thumb2' });
      const second = await publishWith(
        { thumbnail: { id: 'med_thumb2' } },
        {
          optionMedia: { thumbnail: big },
          media: [storedVideo(world.bytes, patternBytes(301 * KIB), 'med_video_2')],
        },
      );
      expect(warningText(second, 'THUMBNAIL_NOT_SET')).toMatch(/larger than 2 MB/);
      expect(world.fake.control.requests().filter((seen) => seen.endpoint === 'thumbnails.set')).toEqual([]);
    });

    it("the fake refuses what the reference lists: an image over 2 MB (413), bytes that are not an image (invalidImage), an empty body, another channel's video", async () => {
      world = await startWorld({ processingPolls: 0 });
      await publishWith({});
      const videoId = world.fake.control.videos()[0]?.id ?? '';
      const token = channelToken(world, [UPLOAD]);
      const set = (body: Uint8Array, type = 'image/jpeg', id = videoId) =>
        fetch(`${world.fake.uploadUrl}/thumbnails/set?videoId=${id}&uploadType=media`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': type },
          body: body,
        });
      const reason = async (response: Response) => [
        response.status,
        ((await response.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]?.reason,
      ];

      expect(await reason(await set(jpegBytes(2 * 1024 * KIB + 1)))).toEqual([413, 'mediaTooLarge']);
      expect(await reason(await set(patternBytes(KIB)))).toEqual([400, 'invalidImage']);
      expect(await reason(await set(new Uint8Array(0)))).toEqual([400, 'mediaBodyRequired']);
      expect(await reason(await set(jpegBytes(KIB), 'image/jpeg', 'nope'))).toEqual([404, 'videoNotFound']);
      expect((await set(jpegBytes(KIB))).status).toBe(200);
    });

    it('tries again on the next attempt after a server error (pending), then sets it and publishes', async () => {
      world = await startWorld({ processingPolls: 0 });
      world.fake.control.failNext('thumbnails.set', {
        kind: 'reply',
        reply: googleError(503, 'backendError', 'Backend Error'),
      });
      const thumbnail = storedImage(world.bytes, jpegBytes(10 * KIB));

      const first = await publishWith({ thumbnail: { id: 'med_thumb1' } }, { optionMedia: { thumbnail } });
      expect(first).toMatchObject({ kind: 'pending', stage: 'after_upload_steps' });
      const progress = first.kind === 'pending' ? first.progress : undefined;
      const post = aPost({
        platformOptions: { youtube: { title: 'Launch', thumbnail: { id: 'med_thumb1' } } },
      });
      const second = await world.network.connector.publish(
        aRequest(world, channelToken(world), {
          post,
          optionMedia: { thumbnail },
          media: [storedVideo(world.bytes, patternBytes(300 * KIB))],
          ...(progress && { progress }),
          attempt: 2,
        }),
      );

      expect(second).toMatchObject({ kind: 'published' });
      expect(warningCodes(second)).toEqual([]);
      expect(world.fake.control.videos()).toHaveLength(1);
      expect(world.fake.control.videos()[0]?.thumbnail).toBeDefined();
    });
    it('when the worker stops waiting mid-thumbnail: unknown, and the look-up finds the video published with THUMBNAIL_NOT_SET (never re-uploaded)', async () => {
      world = await startWorld({ processingPolls: 0 });
      world.fake.control.failNext('thumbnails.set', { kind: 'delayAfter', ms: 3_000 });
      const thumbnail = storedImage(world.bytes, jpegBytes(10 * KIB));
      const post = aPost({
        platformOptions: { youtube: { title: 'Launch', thumbnail: { id: 'med_thumb1' } } },
      });
      const token = channelToken(world);

      const outcome = await world.network.connector.publish(
        aRequest(world, token, {
          post,
          optionMedia: { thumbnail },
          media: [storedVideo(world.bytes, patternBytes(300 * KIB))],
          signal: AbortSignal.timeout(1_500),
        }),
      );
      expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
      const progress = outcome.kind === 'unknown' ? outcome.progress : undefined;

      const found = await world.network.connector.findPublished?.({
        account: aRequest(world, token).account,
        credentials: { accessToken: token },
        post,
        clientReference: post.postId,
        ...(progress && { progress }),
        signal: AbortSignal.timeout(5_000),
      });

      const [video] = world.fake.control.videos();
      expect(found).toMatchObject({ kind: 'found', platformPostId: video?.id });
      expect(found?.kind === 'found' && found.warnings?.map((warning) => warning.code)).toEqual([
        'THUMBNAIL_NOT_SET',
      ]);
      expect(world.fake.control.videos()).toHaveLength(1);
    });
  });

  describe('playlist', () => {
    it('adds the video to the playlist after processing (playlistItems.insert) and publishes without a warning', async () => {
      world = await startWorld({ processingPolls: 0 });
      const playlistId = world.fake.control.addPlaylist(CHANNEL.id, 'Launches');

      const outcome = await publishWith({ playlistId });

      const [video] = world.fake.control.videos();
      expect(outcome).toMatchObject({ kind: 'published', platformPostId: video?.id });
      expect(warningCodes(outcome)).toEqual([]);
      expect(world.fake.control.playlists()[0]?.items.map((item) => item.videoId)).toEqual([video?.id]);
    });

    it('publishes with PLAYLIST_NOT_ADDED and a reconnect hint for an account connected without youtube.force-ssl', async () => {
      world = await startWorld({ processingPolls: 0 });
      const playlistId = world.fake.control.addPlaylist(CHANNEL.id);

      const outcome = await publishWith({ playlistId }, {}, channelToken(world, [UPLOAD, READONLY]));

      expect(outcome.kind).toBe('published');
      expect(warningCodes(outcome)).toEqual(['PLAYLIST_NOT_ADDED']);
      expect(warningText(outcome, 'PLAYLIST_NOT_ADDED')).toMatch(/youtube\.force-ssl.*reconnect/);
      expect(world.fake.control.playlists()[0]?.items).toEqual([]);
    });

    it("publishes with PLAYLIST_NOT_ADDED for a playlist that is not the channel's (404 playlistNotFound)", async () => {
      world = await startWorld({ processingPolls: 0 });
      world.fake.control.addChannel({ ...CHANNEL, id: 'UCother0000000000000001' });
      const theirs = world.fake.control.addPlaylist('UCother0000000000000001');

      const outcome = await publishWith({ playlistId: theirs });

      expect(warningText(outcome, 'PLAYLIST_NOT_ADDED')).toMatch(/does not know the playlist/);
    });

    it('after an insert whose answer was lost, looks the video up in the playlist before inserting again: one item, one insert', async () => {
      world = await startWorld({ processingPolls: 0 });
      const playlistId = world.fake.control.addPlaylist(CHANNEL.id);
      world.fake.control.failNext('playlistItems.insert', { kind: 'resetAfter' });

      const first = await publishWith({ playlistId });
      expect(first).toMatchObject({ kind: 'pending', stage: 'after_upload_steps' });
      const progress = first.kind === 'pending' ? first.progress : undefined;
      expect(progress).toMatchObject({ steps: { playlist: { s: 'unknown', tries: 1 } } });

      const post = aPost({ platformOptions: { youtube: { title: 'Launch', playlistId } } });
      const second = await world.network.connector.publish(
        aRequest(world, channelToken(world), {
          post,
          media: [storedVideo(world.bytes, patternBytes(300 * KIB))],
          ...(progress && { progress }),
          attempt: 2,
        }),
      );

      expect(second).toMatchObject({ kind: 'published' });
      expect(warningCodes(second)).toEqual([]);
      const endpoints = world.fake.control.requests().map((seen) => seen.endpoint);
      expect(endpoints.filter((endpoint) => endpoint === 'playlistItems.insert')).toHaveLength(1);
      expect(endpoints.filter((endpoint) => endpoint === 'playlistItems.list')).toHaveLength(1);
      expect(world.fake.control.playlists()[0]?.items).toHaveLength(1);
    });

    it('after an insert lost before YouTube acted, finds it absent and inserts once: one item', async () => {
      world = await startWorld({ processingPolls: 0 });
      const playlistId = world.fake.control.addPlaylist(CHANNEL.id);
      world.fake.control.failNext('playlistItems.insert', { kind: 'reset' });

      const first = await publishWith({ playlistId });
      const progress = first.kind === 'pending' ? first.progress : undefined;
      const post = aPost({ platformOptions: { youtube: { title: 'Launch', playlistId } } });
      const second = await world.network.connector.publish(
        aRequest(world, channelToken(world), {
          post,
          media: [storedVideo(world.bytes, patternBytes(300 * KIB))],
          ...(progress && { progress }),
          attempt: 2,
        }),
      );

      expect(second).toMatchObject({ kind: 'published' });
      expect(world.fake.control.playlists()[0]?.items).toHaveLength(1);
    });

    it('when the worker stops waiting mid-insert: unknown, and the look-up finds the video published, its playlist item looked up, never inserted again', async () => {
      world = await startWorld({ processingPolls: 0 });
      const playlistId = world.fake.control.addPlaylist(CHANNEL.id);
      world.fake.control.failNext('playlistItems.insert', { kind: 'delayAfter', ms: 3_000 });
      const post = aPost({ platformOptions: { youtube: { title: 'Launch', playlistId } } });
      const token = channelToken(world);

      const outcome = await world.network.connector.publish(
        aRequest(world, token, {
          post,
          media: [storedVideo(world.bytes, patternBytes(300 * KIB))],
          signal: AbortSignal.timeout(1_500),
        }),
      );
      expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
      const progress = outcome.kind === 'unknown' ? outcome.progress : undefined;

      const found = await world.network.connector.findPublished?.({
        account: aRequest(world, token).account,
        credentials: { accessToken: token },
        post,
        clientReference: post.postId,
        ...(progress && { progress }),
        signal: AbortSignal.timeout(5_000),
      });

      const [video] = world.fake.control.videos();
      expect(found).toEqual({
        kind: 'found',
        platformPostId: video?.id,
        platformPostUrl: `https://www.youtube.com/watch?v=${video?.id}`,
      });
      expect(world.fake.control.playlists()[0]?.items).toHaveLength(1);
      expect(
        world.fake.control.requests().filter((seen) => seen.endpoint === 'playlistItems.insert'),
      ).toHaveLength(1);
    });

    it('the fake refuses a token with only youtube.upload (403 insufficientPermissions), and lists by videoId', async () => {
      world = await startWorld({ processingPolls: 0 });
      const playlistId = world.fake.control.addPlaylist(CHANNEL.id);
      await publishWith({});
      const videoId = world.fake.control.videos()[0]?.id ?? '';
      const insert = (token: string) =>
        fetch(`${world.fake.apiUrl}/playlistItems?part=snippet`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId } } }),
        });

      const refused = await insert(channelToken(world, [UPLOAD]));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        error: { errors: [{ reason: 'insufficientPermissions' }] },
      });
      const token = channelToken(world);
      expect((await insert(token)).status).toBe(200);
      expect((await insert(token)).status).toBe(200);
      const listed = await fetch(
        `${world.fake.apiUrl}/playlistItems?part=snippet&playlistId=${playlistId}&videoId=${videoId}`,
        { headers: { Authorization: `Bearer ${token}` } },
      );
      // Not idempotent: the same video twice.
      expect(((await listed.json()) as { items: unknown[] }).items).toHaveLength(2);
    });
  });
});
