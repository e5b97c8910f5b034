import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ServiceUnavailableError } from '../../domain/errors.js';
import type { MediaUrls } from '../../ports/media-urls.js';

/** A network fetching media needs minutes, not hours: presigned URLs never outlive an hour here. */
export const MAX_MEDIA_URL_SECONDS = 60 * 60;

/**
 * Presigned GetObject URLs of the media bucket (s3rver on the local host, so there the URL is an
 * http://127.0.0.1 address the fakes can fetch). Signing is local: no call to S3 is made.
 */
export function makeS3MediaUrls(client: S3Client, bucket: string): MediaUrls {
  return {
    async presignGet(objectKey, expiresInSeconds, signal) {
      signal?.throwIfAborted();
      if (
        !Number.isInteger(expiresInSeconds) ||
        expiresInSeconds < 1 ||
        expiresInSeconds > MAX_MEDIA_URL_SECONDS
      ) {
        throw new RangeError(
          `A media URL lives 1 to ${MAX_MEDIA_URL_SECONDS} seconds; asked for ${expiresInSeconds}.`,
        );
      }
      return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: objectKey }), {
        expiresIn: expiresInSeconds,
      });
    },
  };
}

/** A deployment with no media bucket: no media can have been stored, so no URL can be made. */
export function unconfiguredMediaUrls(): MediaUrls {
  return {
    async presignGet() {
      throw new ServiceUnavailableError('Media storage is not configured on this deployment (MEDIA_BUCKET).');
    },
  };
}
