import { newId } from '../../../shared/domain/ids.js';
import { mediaObjectKey } from '../../../shared/domain/media.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import type { TestHost } from '../../support/test-host.js';

/** A JPEG-looking file (the magic bytes the fakes check), small. */
export const SMALL_JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4092, 7)]);

/**
 * A media item as an upload leaves it: the bytes in the bucket and an `uploaded` record in the
 * tenant's workspace (with the duration a probe would have read, for videos that need one).
 * Answers its media id.
 */
export async function uploadedMedia(
  host: TestHost,
  tenant: BootstrapResult,
  file: { bytes: Buffer; mimeType: string; filename: string; durationSeconds?: number },
): Promise<string> {
  const mediaId = newId('media');
  const objectKey = mediaObjectKey(tenant.tenantId, tenant.workspaceId, mediaId);
  await host.deps.storage.put(objectKey, file.bytes, file.mimeType);
  await host.deps.media.put({
    mediaId,
    tenantId: tenant.tenantId,
    workspaceId: tenant.workspaceId,
    filename: file.filename,
    mimeType: file.mimeType,
    sizeBytes: file.bytes.length,
    status: 'uploaded',
    objectKey,
    createdAt: new Date().toISOString(),
    uploadedAt: new Date().toISOString(),
    ...(file.durationSeconds !== undefined && { durationSeconds: file.durationSeconds }),
  });
  return mediaId;
}
