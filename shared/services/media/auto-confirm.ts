import { AppError } from '../../domain/errors.js';
import { parseMediaObjectKey } from '../../domain/media.js';
import type { Logger } from '../../ports/logger.js';
import { type MediaDeps, makeConfirmUpload } from './confirm-upload.js';

/**
 * An object stored in the media bucket: confirms the upload it is, so a caller need not call
 * confirm. An object that is not what was declared stays pending (confirm would say
 * upload_incomplete, logged here); keys of other shapes (URL media stored at delivery) are not
 * uploads. Any other failure is thrown, for the trigger to report.
 */
export function makeAutoConfirm(deps: MediaDeps & { logger: Logger }) {
  const confirm = makeConfirmUpload(deps);
  return async function onObjectStored(key: string): Promise<void> {
    const media = parseMediaObjectKey(key);
    if (!media) return;
    try {
      await confirm(media.tenantId, media.workspaceId, media.mediaId);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      deps.logger.warn('upload not confirmed', {
        tenantId: media.tenantId,
        workspaceId: media.workspaceId,
        mediaId: media.mediaId,
        code: error.code,
        reason: error.message,
      });
    }
  };
}
