import { newId } from '../../domain/ids.js';
import { filenameOfUrl, type Media, mediaObjectKey } from '../../domain/media.js';
import type { MediaKind } from '../../domain/posts.js';
import { fetchFailureCode, type MediaFetcher } from '../../ports/media-fetcher.js';
import type { MediaDeps } from './confirm-upload.js';

/** What the import queue carries: which media to fetch. */
export interface MediaImportMessage {
  tenantId: string;
  workspaceId: string;
  mediaId: string;
}

/** POST .../media {url, type}: records the import, pending; the outbox hands it to the import worker. */
export function makeStartImport(deps: MediaDeps) {
  return async function startImport(
    tenantId: string,
    workspaceId: string,
    request: { url: string; type: MediaKind },
  ) {
    const now = deps.clock.now();
    const mediaId = newId('media', now);
    const media: Media = {
      mediaId,
      tenantId,
      workspaceId,
      filename: filenameOfUrl(request.url),
      mimeType: 'application/octet-stream',
      sizeBytes: 0,
      status: 'pending',
      objectKey: mediaObjectKey(tenantId, workspaceId, mediaId),
      source: 'url',
      sourceUrl: request.url,
      declaredKind: request.type,
      createdAt: new Date(now).toISOString(),
    };
    await deps.media.put(media);
    return media;
  };
}

/**
 * The import worker, for one message:
 * 1. the media must still be a pending import (else: a duplicate; nothing to do);
 * 2. fetch it through the SSRF-safe fetcher (its type must fit the declared kind);
 * 3. store the bytes, then pending → uploaded with the real type and size (and a video's duration and
 *    frame size, read from the bytes in hand; unknown when they cannot be read);
 * 4. a refused or failed fetch ends `failed` with the fetcher's code (the caller may import again;
 *    a passing failure is not retried here, so an import never stays pending for good).
 */
export function makeImportWorker(deps: MediaDeps & { fetchMedia: MediaFetcher }) {
  return async function importMedia(message: MediaImportMessage): Promise<Media | undefined> {
    const media = await deps.media.get(message.tenantId, message.workspaceId, message.mediaId);
    if (media?.status !== 'pending' || media.source !== 'url' || !media.sourceUrl || !media.objectKey)
      return media;
    try {
      const fetched = await deps.fetchMedia(media.sourceUrl, media.declaredKind ?? 'image');
      await deps.storage.put(media.objectKey, fetched.bytes, fetched.contentType);
      const video = await deps.videoProbe.inMemory(fetched.bytes, fetched.contentType);
      return await deps.media.settle(media.tenantId, media.workspaceId, media.mediaId, {
        status: 'uploaded',
        ...video,
        mimeType: fetched.contentType,
        sizeBytes: fetched.bytes.length,
        uploadedAt: new Date(deps.clock.now()).toISOString(),
      });
    } catch (error) {
      const code = fetchFailureCode(error);
      if (!code) throw error;
      return deps.media.settle(media.tenantId, media.workspaceId, media.mediaId, {
        status: 'failed',
        error: { code, message: error instanceof Error ? error.message : code },
      });
    }
  };
}
