import type { S3Event } from 'aws-lambda';
import { AppError } from '../../domain/errors.js';
import { parseMediaObjectKey } from '../../domain/media.js';
import type { Logger } from '../../ports/logger.js';
import { type MediaDeps, makeConfirmUpload } from './confirm-upload.js';

/**
 * The media bucket's object-created notification: confirms the upload it reports, so a caller need
 * not call confirm. An object that is not what was declared stays pending (confirm would say
 * upload_incomplete); keys of other shapes (URL media stored at delivery) are not uploads.
 */
export function makeAutoConfirm(deps: MediaDeps & { logger: Logger }) {
  const confirm = makeConfirmUpload(deps);
  return async function onObjectCreated(event: S3Event): Promise<void> {
    for (const record of event.Records) {
      // Keys in S3 notifications are URL-encoded, spaces as '+'.
      const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
      const media = parseMediaObjectKey(key);
      if (!media) continue;
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
    }
  };
}
