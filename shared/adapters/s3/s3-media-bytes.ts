import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ServiceUnavailableError } from '../../domain/errors.js';
import type { MediaBytes } from '../../ports/media-bytes.js';

/**
 * Stored media's bytes from S3 (s3rver on the local host), a range at a time: GetObject with a
 * Range header, so a connector's chunked upload holds one chunk in memory, never the whole file.
 * Every read honours the caller's abort signal. A missing object rejects with S3's NoSuchKey.
 */
export function makeS3MediaBytes(client: S3Client, bucket: string): MediaBytes {
  return {
    async readRange(objectKey, start, end, signal) {
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
        throw new RangeError(`A byte range needs 0 ≤ start ≤ end (whole numbers); got ${start}–${end}.`);
      }
      if (end === start) return new Uint8Array(0);
      const output = await client.send(
        // HTTP ranges are inclusive; ours ends before `end`.
        new GetObjectCommand({ Bucket: bucket, Key: objectKey, Range: `bytes=${start}-${end - 1}` }),
        { abortSignal: signal },
      );
      if (!output.Body) throw new Error(`S3 answered no body for ${objectKey}.`);
      const bytes = await output.Body.transformToByteArray();
      if (bytes.length !== end - start) {
        throw new RangeError(
          `Asked for bytes ${start}–${end} of ${objectKey}, got ${bytes.length}: the range is past its end.`,
        );
      }
      return bytes;
    },

    async stream(objectKey, signal) {
      const output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey }), {
        abortSignal: signal,
      });
      if (!output.Body) throw new Error(`S3 answered no body for ${objectKey}.`);
      return output.Body.transformToWebStream();
    },
  };
}

/** A deployment with no media bucket: every read refuses, saying why (no media can have been stored). */
export function unconfiguredMediaBytes(): MediaBytes {
  const refuse = async (): Promise<never> => {
    throw new ServiceUnavailableError('Media storage is not configured on this deployment (MEDIA_BUCKET).');
  };
  return { readRange: refuse, stream: refuse };
}
