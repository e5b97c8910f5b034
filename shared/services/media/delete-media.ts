import { NotFoundError } from '../../domain/errors.js';
import type { MediaDeps } from './confirm-upload.js';

/**
 * Delete media: the object goes, then the record. Posts that still reference it fail at delivery
 * with media_not_found (interface 3, rule 2).
 */
export function makeDeleteMedia(deps: MediaDeps) {
  return async function deleteMedia(tenantId: string, workspaceId: string, mediaId: string): Promise<void> {
    const media = await deps.media.get(tenantId, workspaceId, mediaId);
    if (!media) throw new NotFoundError();
    if (media.objectKey) await deps.storage.delete(media.objectKey);
    await deps.media.delete(tenantId, workspaceId, mediaId);
  };
}
