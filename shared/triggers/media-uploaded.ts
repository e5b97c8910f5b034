import type { S3Event } from 'aws-lambda';
import type { Logger } from '../ports/logger.js';
import { makeAutoConfirm } from '../services/media/auto-confirm.js';
import type { MediaDeps } from '../services/media/confirm-upload.js';

/**
 * The media bucket's object-created notification (S3): each object it reports, in order, to
 * auto-confirm. A failure other than "not what was declared" stops there and fails the invocation,
 * so Lambda tries the event again (S3 invokes it asynchronously); confirm is idempotent.
 */
export function makeMediaUploadedHandler(deps: MediaDeps & { logger: Logger }) {
  const onObjectStored = makeAutoConfirm(deps);
  return async function onObjectCreated(event: S3Event): Promise<void> {
    // Keys in S3 notifications are URL-encoded, spaces as '+'.
    for (const record of event.Records)
      await onObjectStored(decodeURIComponent(record.s3.object.key.replace(/\+/g, ' ')));
  };
}
