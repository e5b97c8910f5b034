import { afterEach, describe, expect, it } from 'vitest';
import { googleError } from '../../../../infra/fake-networks/youtube/index.js';
import type { YouTubeCaptions } from '../../../../shared/networks/youtube/captions-option.js';
import type { PublishOutcome, PublishRequest } from '../../../../shared/ports/connector.js';
import {
  aPost,
  aRequest,
  CHANNEL,
  channelToken,
  KIB,
  patternBytes,
  startWorld,
  storedVideo,
  type YouTubeWorld,
} from './youtube-world.js';

const UPLOAD = 'https://www.googleapis.com/auth/youtube.upload';
const READONLY = 'https://www.googleapis.com/auth/youtube.readonly';
const YOUTUBE = 'https://www.googleapis.com/auth/youtube';

const VTT = 'WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nHello, launch day.\n';
const SRT = '1\n00:00:01,000 --> 00:00:03,500\nOlá, dia de lançamento.\n';
const ENGLISH: YouTubeCaptions = { language: 'en', name: 'English', format: 'vtt', text: VTT };

function warningCodes(outcome: PublishOutcome): string[] {
  return outcome.kind === 'published' ? (outcome.warnings ?? []).map((warning) => warning.code) : [];
}

function warningText(outcome: PublishOutcome, code: string): string {
  if (outcome.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return outcome.warnings?.find((warning) => warning.code === code)?.message ?? '';
}

describe('YouTube caption track against the fake (captions.insert after processing)', () => {
  let world: YouTubeWorld;
  afterEach(() => world.stop());

  const postWith = (captions: YouTubeCaptions) =>
    aPost({ platformOptions: { youtube: { title: 'Launch', captions } } });

  /** One attempt at a post with this caption track, its video processed on the first status read. */
  function attempt(
    captions: YouTubeCaptions,
    extra: Partial<PublishRequest> = {},
    token?: string,
  ): Promise<PublishOutcome> {
    return world.network.connector.publish(
      aRequest(world, token ?? channelToken(world), {
        post: postWith(captions),
        media: [storedVideo(world.bytes, patternBytes(300 * KIB))],
        ...extra,
      }),
    );
  }

  const endpointCount = (endpoint: string) =>
    world.fake.control.requests().filter((seen) => seen.endpoint === endpoint).length;

  it('adds the track once the video is processed (multipart: the snippet, then the WebVTT file; 400 units) and publishes without a warning', async () => {
    world = await startWorld({ processingPolls: 0 });

    const outcome = await attempt(ENGLISH);

    const [video] = world.fake.control.videos();
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: video?.id,
      platformPostUrl: `https://www.youtube.com/watch?v=${video?.id}`,
    });
    const [track, ...others] = world.fake.control.captions();
    expect(others).toEqual([]);
    expect(track).toMatchObject({
      videoId: video?.id,
      channelId: CHANNEL.id,
      language: 'en',
      name: 'English',
      isDraft: false,
      text: VTT,
      status: 'serving',
    });
    expect(track?.contentType).toMatch(/^text\/vtt\b/);
    const [insert] = world.fake.control.requests().filter((seen) => seen.endpoint === 'captions.insert');
    expect(insert?.query).toEqual({ part: 'snippet', uploadType: 'multipart' });
    // 1,600 the upload, 1 the status read, 400 the track.
    expect(world.fake.control.quota().used).toBe(2001);
  });

  it('sends an SRT file as application/x-subrip, its text intact', async () => {
    world = await startWorld({ processingPolls: 0 });

    const outcome = await attempt({ language: 'pt-BR', name: 'Português', format: 'srt', text: SRT });

    expect(warningCodes(outcome)).toEqual([]);
    expect(world.fake.control.captions()).toMatchObject([
      { language: 'pt-BR', name: 'Português', text: SRT, status: 'serving' },
    ]);
    expect(world.fake.control.captions()[0]?.contentType).toMatch(/^application\/x-subrip\b/);
  });

  it('publishes with CAPTIONS_NOT_ADDED and a reconnect hint for an account connected without youtube.force-ssl', async () => {
    world = await startWorld({ processingPolls: 0 });

    const outcome = await attempt(ENGLISH, {}, channelToken(world, [UPLOAD, READONLY]));

    expect(outcome.kind).toBe('published');
    expect(warningCodes(outcome)).toEqual(['CAPTIONS_NOT_ADDED']);
    expect(warningText(outcome, 'CAPTIONS_NOT_ADDED')).toMatch(/"English".*youtube\.force-ssl.*reconnect/);
    expect(world.fake.control.captions()).toEqual([]);
  });

  it.each([
    [
      googleError(400, 'invalidMetadata', 'The request contains invalid metadata values.'),
      /refused the caption file/,
    ],
    [googleError(403, 'forbidden', 'The permissions are not sufficient.'), /does not let this channel/],
  ])(
    'publishes with CAPTIONS_NOT_ADDED, in our words, when YouTube refuses the track (%#)',
    async (reply, words) => {
      world = await startWorld({ processingPolls: 0 });
      world.fake.control.failNext('captions.insert', { kind: 'reply', reply });

      const outcome = await attempt(ENGLISH);

      expect(outcome.kind).toBe('published');
      expect(warningCodes(outcome)).toEqual(['CAPTIONS_NOT_ADDED']);
      const text = warningText(outcome, 'CAPTIONS_NOT_ADDED');
      expect(text).toMatch(words);
      expect(text).not.toMatch(/invalidMetadata|permissions are not sufficient/);
      expect(endpointCount('captions.insert')).toBe(1);
    },
  );

  it('after an insert whose answer was lost, looks the track up before inserting again: one track, one insert', async () => {
    world = await startWorld({ processingPolls: 0 });
    world.fake.control.failNext('captions.insert', { kind: 'resetAfter' });

    const first = await attempt(ENGLISH);
    expect(first).toMatchObject({ kind: 'pending', stage: 'after_upload_steps' });
    const progress = first.kind === 'pending' ? first.progress : undefined;
    expect(progress).toMatchObject({ steps: { captions: { s: 'unknown', tries: 1 } } });

    const second = await attempt(ENGLISH, { ...(progress && { progress }), attempt: 2 });

    expect(second).toMatchObject({ kind: 'published' });
    expect(warningCodes(second)).toEqual([]);
    expect(world.fake.control.captions()).toHaveLength(1);
    expect(endpointCount('captions.insert')).toBe(1);
    expect(endpointCount('captions.list')).toBe(1);
    // 1,600 the upload, 2 status reads, 400 the track, 50 the look-up.
    expect(world.fake.control.quota().used).toBe(2052);
  });

  it('after an insert lost before YouTube acted, finds no track and inserts once', async () => {
    world = await startWorld({ processingPolls: 0 });
    world.fake.control.failNext('captions.insert', { kind: 'reset' });

    const first = await attempt(ENGLISH);
    const progress = first.kind === 'pending' ? first.progress : undefined;
    const second = await attempt(ENGLISH, { ...(progress && { progress }), attempt: 2 });

    expect(second).toMatchObject({ kind: 'published' });
    expect(warningCodes(second)).toEqual([]);
    expect(world.fake.control.captions()).toHaveLength(1);
  });

  it('a retry that YouTube answers 409 captionExists (the track is there) is done: published without a warning, one track', async () => {
    world = await startWorld({ processingPolls: 0 });
    world.fake.control.failNext('captions.insert', { kind: 'resetAfter' });
    const first = await attempt(ENGLISH);
    const progress = first.kind === 'pending' ? first.progress : undefined;
    // The attempt's step state was not kept (the worker stopped before saving it): the next one inserts.
    const withoutSteps = progress && { ...progress, steps: {} };

    const second = await attempt(ENGLISH, { ...(withoutSteps && { progress: withoutSteps }), attempt: 2 });

    expect(second).toMatchObject({ kind: 'published' });
    expect(warningCodes(second)).toEqual([]);
    expect(endpointCount('captions.insert')).toBe(2);
    expect(endpointCount('captions.list')).toBe(0);
    expect(world.fake.control.captions()).toHaveLength(1);
  });

  it('when the worker stops waiting mid-insert: unknown, and the look-up finds the video published with its track (captions.list), never inserted again', async () => {
    world = await startWorld({ processingPolls: 0 });
    world.fake.control.failNext('captions.insert', { kind: 'delayAfter', ms: 3_000 });
    const post = postWith(ENGLISH);
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
    expect(world.fake.control.captions()).toHaveLength(1);
    expect(endpointCount('captions.insert')).toBe(1);
    expect(endpointCount('captions.list')).toBe(1);
  });

  it('the look-up after an interrupted insert that never reached YouTube says CAPTIONS_NOT_ADDED', async () => {
    world = await startWorld({ processingPolls: 0 });
    world.fake.control.failNext('captions.insert', { kind: 'reset' });
    const post = postWith(ENGLISH);
    const token = channelToken(world);
    const first = await attempt(ENGLISH, { post }, token);
    const progress = first.kind === 'pending' ? first.progress : undefined;
    expect(progress).toMatchObject({ steps: { captions: { s: 'unknown' } } });

    const found = await world.network.connector.findPublished?.({
      account: aRequest(world, token).account,
      credentials: { accessToken: token },
      post,
      clientReference: post.postId,
      ...(progress && { progress }),
      signal: AbortSignal.timeout(5_000),
    });

    expect(found?.kind === 'found' && found.warnings?.map((warning) => warning.code)).toEqual([
      'CAPTIONS_NOT_ADDED',
    ]);
    expect(world.fake.control.captions()).toEqual([]);
    expect(endpointCount('captions.insert')).toBe(1);
  });

  describe('the fake, as the captions references say', () => {
    async function uploadedVideo(): Promise<string> {
      await attempt(ENGLISH, {}, channelToken(world, [UPLOAD]));
      return world.fake.control.videos()[0]?.id ?? '';
    }

    function insert(
      token: string,
      snippet: Record<string, unknown>,
      file = VTT,
      query = 'part=snippet&uploadType=multipart',
    ) {
      const boundary = 'b0undary';
      const body = [
        `--${boundary}`,
        'Content-Type: application/json; charset=UTF-8',
        '',
        JSON.stringify({ snippet }),
        `--${boundary}`,
        'Content-Type: application/octet-stream',
        '',
        file,
        `--${boundary}--`,
        '',
      ].join('\r\n');
      return fetch(`${world.fake.uploadUrl}/captions?${query}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': `multipart/related; boundary=${boundary}`,
        },
        body,
      });
    }

    const reason = async (response: Response) => [
      response.status,
      ((await response.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]?.reason,
    ];

    it('takes youtube.force-ssl only (403 insufficientPermissions for youtube or youtube.upload), in both calls', async () => {
      world = await startWorld({ processingPolls: 0 });
      const videoId = await uploadedVideo();
      const snippet = { videoId, language: 'en', name: 'English' };

      expect(await reason(await insert(channelToken(world, [UPLOAD]), snippet))).toEqual([
        403,
        'insufficientPermissions',
      ]);
      expect(await reason(await insert(channelToken(world, [YOUTUBE]), snippet))).toEqual([
        403,
        'insufficientPermissions',
      ]);
      const listed = await fetch(`${world.fake.apiUrl}/captions?part=snippet&videoId=${videoId}`, {
        headers: { Authorization: `Bearer ${channelToken(world, [UPLOAD])}` },
      });
      expect(await reason(listed)).toEqual([403, 'insufficientPermissions']);
      expect(world.fake.control.captions()).toEqual([]);
    });

    it('refuses a missing snippet field, a long name, an empty file, a video not the channel’s; 409 on the same language and name; lists what it holds', async () => {
      world = await startWorld({ processingPolls: 0 });
      const videoId = await uploadedVideo();
      const token = channelToken(world);

      expect(await reason(await insert(token, { videoId, name: 'English' }))).toEqual([400, 'required']);
      expect(await reason(await insert(token, { language: 'en', name: 'English' }))).toEqual([
        400,
        'required',
      ]);
      expect(await reason(await insert(token, { videoId, language: 'en' }))).toEqual([400, 'required']);
      expect(await reason(await insert(token, { videoId, language: 'en', name: 'x'.repeat(151) }))).toEqual([
        400,
        'nameTooLong',
      ]);
      expect(await reason(await insert(token, { videoId, language: 'en', name: 'English' }, ''))).toEqual([
        400,
        'contentRequired',
      ]);
      expect(await reason(await insert(token, { videoId: 'nope', language: 'en', name: 'English' }))).toEqual(
        [404, 'videoNotFound'],
      );
      const unitsBefore = world.fake.control.quota().used;
      expect((await insert(token, { videoId, language: 'en', name: 'English' })).status).toBe(200);
      expect(world.fake.control.quota().used - unitsBefore).toBe(400);
      expect(await reason(await insert(token, { videoId, language: 'en', name: 'English' }))).toEqual([
        409,
        'captionExists',
      ]);
      expect(
        (await insert(token, { videoId, language: 'en', name: 'English (UK)' }, 'not a caption file')).status,
      ).toBe(200);

      const listed = await fetch(`${world.fake.apiUrl}/captions?part=snippet&videoId=${videoId}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const body = (await listed.json()) as { items: { snippet: Record<string, unknown> }[] };
      expect(
        body.items.map((item) => [item.snippet.name, item.snippet.status, item.snippet.failureReason]),
      ).toEqual([
        ['English', 'serving', undefined],
        ['English (UK)', 'failed', 'unsupportedFormat'],
      ]);
      expect(world.fake.control.quota().used - unitsBefore).toBe(850);
    });
  });
});
