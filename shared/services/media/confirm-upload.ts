import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { Media } from '../../domain/media.js';
import type { Clock } from '../../ports/clock.js';
import type { MediaStore } from '../../ports/media-store.js';
import { matchesDeclared, type ObjectStorage } from '../../ports/object-storage.js';
import type { VideoProbe } from '../../ports/video-probe.js';

export interface MediaDeps {
  media: MediaStore;
  storage: ObjectStorage;
  videoProbe: VideoProbe;
  clock: Clock;
}

/**
 * Confirm an upload (the API call, and the bucket's object-created notification, which makes the
 * call optional):
 * 1. an uploaded item is answered as it is (confirm is idempotent);
 * 2. the object must be in storage with the declared type and size, else 409 upload_incomplete and
 *    nothing changes;
 * 3. a video's duration and frame size are read from its headers (ranged reads; a file that cannot
 *    be read keeps them unknown and is uploaded all the same: the networks' limits are checked
 *    against a post, never against an upload);
 * 4. pending → uploaded, with them.
 */
export function makeConfirmUpload(deps: MediaDeps) {
  return async function confirmUpload(
    tenantId: string,
    workspaceId: string,
    mediaId: string,
  ): Promise<Media> {
    const media = await deps.media.get(tenantId, workspaceId, mediaId);
    if (!media) throw new NotFoundError();
    if (media.status === 'uploaded') return media;
    if (media.status === 'failed' || media.source === 'url' || !media.objectKey) {
      throw new ConflictError('This media is not an upload waiting for its file.', 'upload_incomplete');
    }
    const stored = await deps.storage.head(media.objectKey);
    if (!stored)
      throw new ConflictError(
        'Nothing has been uploaded yet: PUT the file to uploadUrl first.',
        'upload_incomplete',
      );
    if (!matchesDeclared(stored, { contentType: media.mimeType, contentLength: media.sizeBytes })) {
      throw new ConflictError(
        `The stored file (${stored.contentType ?? 'no type'}, ${stored.contentLength} bytes) is not what was declared (${media.mimeType}, ${media.sizeBytes} bytes).`,
        'upload_incomplete',
      );
    }
    const video = await deps.videoProbe.stored(media.objectKey, media.mimeType, media.sizeBytes);
    const settled = await deps.media.settle(tenantId, workspaceId, mediaId, {
      status: 'uploaded',
      ...video,
      uploadedAt: new Date(deps.clock.now()).toISOString(),
    });
    if (!settled) throw new NotFoundError();
    return settled;
  };
}
