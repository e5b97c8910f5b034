import { InvalidRequestError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import {
  filenameProblem,
  MAX_BYTES_BY_KIND,
  type Media,
  mediaKindOf,
  mediaObjectKey,
  UPLOAD_URL_TTL_SECONDS,
} from '../../domain/media.js';
import type { MediaDeps } from './confirm-upload.js';

export interface UploadRequest {
  filename: string;
  mimeType: string;
  sizeBytes: number;
}

export interface IssuedUpload {
  media: Media;
  uploadUrl: string;
  expiresAt: string;
  /** Headers the PUT must carry, exactly (they are part of the signature). */
  headers: Record<string, string>;
}

/**
 * Start an upload:
 * 1. the file name must be a plain name (`filenameProblem`), the type supported and the size within
 *    its kind's limit (400 otherwise);
 * 2. a presigned PUT, valid 15 minutes, signed for that type and that exact length;
 * 3. the media record, pending until the file is there.
 */
export function makeCreateUpload(deps: MediaDeps) {
  return async function createUpload(
    tenantId: string,
    workspaceId: string,
    request: UploadRequest,
  ): Promise<IssuedUpload> {
    const nameProblem = filenameProblem(request.filename);
    if (nameProblem) throw new InvalidRequestError('The file name is refused.', { filename: [nameProblem] });
    const kind = mediaKindOf(request.mimeType);
    if (!kind)
      throw new InvalidRequestError('Unsupported mimeType.', { mimeType: ['Not a supported media type.'] });
    if (request.sizeBytes > MAX_BYTES_BY_KIND[kind]) {
      throw new InvalidRequestError(`The file is too large for a ${kind}.`, {
        sizeBytes: [`At most ${MAX_BYTES_BY_KIND[kind]} bytes for a ${kind}.`],
      });
    }
    const now = deps.clock.now();
    const mediaId = newId('media', now);
    const objectKey = mediaObjectKey(tenantId, workspaceId, mediaId);
    const presigned = await deps.storage.presignPut(objectKey, {
      contentType: request.mimeType,
      contentLength: request.sizeBytes,
      expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
    });
    const media: Media = {
      mediaId,
      tenantId,
      workspaceId,
      filename: request.filename,
      mimeType: request.mimeType,
      sizeBytes: request.sizeBytes,
      status: 'pending',
      objectKey,
      source: 'upload',
      createdAt: new Date(now).toISOString(),
    };
    await deps.media.put(media);
    return { media, uploadUrl: presigned.url, expiresAt: presigned.expiresAt, headers: presigned.headers };
  };
}
