import { describe, expect, it } from 'vitest';
import type { MediaKind } from '../../../../shared/domain/posts.js';
import type { FetchedMedia } from '../../../../shared/ports/media-fetcher.js';
import { makeImportWorker, makeStartImport } from '../../../../shared/services/media/import-media.js';
import { movieFile, webmFile } from '../../../support/video-files.js';
import { aServiceWorld, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';

/** Imports `url`, fetched as `answer`, and returns the media as the worker settled it. */
async function importVideo(url: string, answer: Omit<FetchedMedia, 'finalUrl'>) {
  const world = await aServiceWorld();
  const fetchMedia = async (fetched: string, _expected: MediaKind) => ({ ...answer, finalUrl: fetched });
  const started = await makeStartImport(world)(TENANT_ID, WORKSPACE_ID, { url, type: 'video' });
  return makeImportWorker({ ...world, fetchMedia })({
    tenantId: TENANT_ID,
    workspaceId: WORKSPACE_ID,
    mediaId: started.mediaId,
  });
}

describe('import a video by URL: its duration', () => {
  it('reads the duration and frame size of the fetched file', async () => {
    const media = await importVideo('https://cdn.example.com/clip.mov', {
      bytes: movieFile({ durationSeconds: 31.5, width: 720, height: 1280, flavour: 'mov', moovLast: true }),
      contentType: 'video/quicktime',
    });

    expect(media).toMatchObject({ status: 'uploaded', durationSeconds: 31.5, width: 720, height: 1280 });
  });

  it('imports a WebM without a stated duration, its duration unknown', async () => {
    const media = await importVideo('https://cdn.example.com/recording.webm', {
      bytes: webmFile({ width: 640, height: 480 }),
      contentType: 'video/webm',
    });

    expect(media?.status).toBe('uploaded');
    expect(media).not.toHaveProperty('durationSeconds');
  });
});
