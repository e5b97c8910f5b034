import { describe, expect, it } from 'vitest';
import { MediaFetchError } from '../../../../shared/adapters/http/safe-fetch.js';
import { type Media, mediaObjectKey } from '../../../../shared/domain/media.js';
import type { MediaKind } from '../../../../shared/domain/posts.js';
import type { FetchedMedia } from '../../../../shared/ports/media-fetcher.js';
import { makeImportWorker, makeStartImport } from '../../../../shared/services/media/import-media.js';
import { aMedia } from '../../support/builders.js';
import { aServiceWorld, at, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';

const URL_PNG = 'https://cdn.example.com/photos/cat.png';

/** A fetcher that answers from `answer` and keeps what it was asked. */
function aFetcher(answer: (url: string, expected: MediaKind) => Promise<FetchedMedia>) {
  const calls: { url: string; expected: MediaKind }[] = [];
  const fetchMedia = async (url: string, expected: MediaKind) => {
    calls.push({ url, expected });
    return answer(url, expected);
  };
  return { fetchMedia, calls };
}

const servesPng = aFetcher(async (url) => ({
  bytes: Buffer.alloc(2_048, 1),
  contentType: 'image/png',
  finalUrl: url,
}));

async function setup(fetcher = servesPng) {
  const world = await aServiceWorld();
  fetcher.calls.length = 0;
  const startImport = makeStartImport(world);
  const importMedia = makeImportWorker({ ...world, fetchMedia: fetcher.fetchMedia });
  const start = async (url = URL_PNG, type: MediaKind = 'image') =>
    startImport(TENANT_ID, WORKSPACE_ID, { url, type });
  const run = (media: Media) =>
    importMedia({ tenantId: media.tenantId, workspaceId: media.workspaceId, mediaId: media.mediaId });
  return { ...world, start, run, calls: fetcher.calls };
}

describe('start an import by URL', () => {
  it('records the media pending, from the URL, named after its last path segment', async () => {
    const { start, media } = await setup();

    const started = await start(`${URL_PNG}?size=large`, 'image');

    expect(started).toEqual({
      mediaId: expect.stringMatching(/^med_/),
      tenantId: TENANT_ID,
      workspaceId: WORKSPACE_ID,
      filename: 'cat.png',
      mimeType: 'application/octet-stream',
      sizeBytes: 0,
      status: 'pending',
      objectKey: mediaObjectKey(TENANT_ID, WORKSPACE_ID, started.mediaId),
      source: 'url',
      sourceUrl: `${URL_PNG}?size=large`,
      declaredKind: 'image',
      createdAt: at(0),
    });
    expect(media.all()).toEqual([started]);
  });

  it('names a file without a path "download"', async () => {
    const { start } = await setup();

    expect((await start('https://cdn.example.com/', 'image')).filename).toBe('download');
  });
});

describe('the import worker', () => {
  it('fetches the declared kind, stores the bytes and settles uploaded with the real type and size', async () => {
    const { start, run, storage, calls, clock } = await setup();
    const started = await start(URL_PNG, 'image');
    clock.advance(3_000);

    const settled = await run(started);

    expect(calls).toEqual([{ url: URL_PNG, expected: 'image' }]);
    expect(settled).toEqual({
      ...started,
      status: 'uploaded',
      mimeType: 'image/png',
      sizeBytes: 2_048,
      uploadedAt: at(3_000),
    });
    expect(await storage.head(started.objectKey ?? '')).toEqual({
      contentType: 'image/png',
      contentLength: 2_048,
    });
  });

  it.each([
    'media_url_blocked',
    'media_url_unreachable',
    'media_fetch_timeout',
    'media_too_large',
    'media_type_mismatch',
    'media_too_many_redirects',
  ] as const)('a fetch failing with %s settles failed with that code, storing nothing', async (code) => {
    const fetcher = aFetcher(async () => {
      throw new MediaFetchError(code, `Refused: ${code}.`, code === 'media_fetch_timeout');
    });
    const { start, run, storage, media } = await setup(fetcher);
    const started = await start();

    const settled = await run(started);

    expect(settled).toEqual({ ...started, status: 'failed', error: { code, message: `Refused: ${code}.` } });
    expect(media.all()).toEqual([settled]);
    expect(storage.keys()).toEqual([]);
  });

  it('an error that is not a fetch failure is thrown, so the message is retried; the media stays pending', async () => {
    const fetcher = aFetcher(async () => {
      throw new TypeError('a bug');
    });
    const { start, run, media } = await setup(fetcher);
    const started = await start();

    await expect(run(started)).rejects.toThrow(TypeError);
    expect(media.all()).toEqual([started]);
  });

  it('a repeated message for a settled import does nothing', async () => {
    const { start, run, calls, clock } = await setup();
    const started = await start();
    const first = await run(started);
    clock.advance(60_000);

    const again = await run(started);

    expect(again).toEqual(first);
    expect(calls).toHaveLength(1);
  });

  it('two deliveries of one message at once settle it once: the first to write wins', async () => {
    const { start, run, media } = await setup();
    const started = await start();

    const [a, b] = await Promise.all([run(started), run(started)]);

    expect(a).toEqual(b);
    expect(media.all()).toEqual([a]);
  });

  it('ignores media that is gone, or that is not an import by URL, without fetching', async () => {
    const { run, media, calls } = await setup();
    const upload = aMedia({ status: 'pending' });
    await media.put(upload);

    expect(await run(aMedia({ mediaId: 'med_01JD0000000000000000000009' }))).toBeUndefined();
    expect(await run(upload)).toEqual(upload);
    expect(calls).toEqual([]);
  });
});
