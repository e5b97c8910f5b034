import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type Clock, systemClock } from '../../ports/clock.js';
import {
  DEFAULT_MAX_GET_BYTES,
  type ObjectStorage,
  ObjectTooLargeError,
} from '../../ports/object-storage.js';

/** SigV4's longest presigned lifetime. */
const MAX_EXPIRES_SECONDS = 7 * 24 * 3600;

/**
 * The presigner puts Content-Type on its unsignable list; naming it here signs it anyway.
 * Content-Length is signed whenever the command carries ContentLength, and is named for clarity.
 * (`unhoistableHeaders` would not help: it only keeps x-amz-* headers out of the query string.)
 */
const SIGNED_UPLOAD_HEADERS = new Set(['content-type', 'content-length']);

/**
 * S3 as object storage. The client comes from `makeS3Client` (once per module); `clock` decides
 * the signing time, so `expiresAt` is exactly when storage stops accepting the URL.
 */
export function makeS3ObjectStorage(
  client: S3Client,
  bucket: string,
  options: { clock?: Clock } = {},
): ObjectStorage {
  const clock = options.clock ?? systemClock;
  return {
    async presignPut(key, { contentType, contentLength, expiresInSeconds }) {
      if (!contentType) throw new RangeError('contentType must not be empty.');
      if (!Number.isSafeInteger(contentLength) || contentLength < 0) {
        throw new RangeError(`contentLength must be a whole number of bytes, not ${contentLength}.`);
      }
      if (
        !Number.isInteger(expiresInSeconds) ||
        expiresInSeconds < 1 ||
        expiresInSeconds > MAX_EXPIRES_SECONDS
      ) {
        throw new RangeError(
          `expiresInSeconds must be 1 to ${MAX_EXPIRES_SECONDS}, not ${expiresInSeconds}.`,
        );
      }
      // X-Amz-Date has whole seconds: sign at a whole second so expiresAt is the real deadline.
      const signedAt = Math.floor(clock.now() / 1000) * 1000;
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        ContentType: contentType,
        ContentLength: contentLength,
      });
      command.middlewareStack.add(
        (next) => async (args) => {
          dropBodyChecksums(args.request);
          return next(args);
        },
        // Build step, low priority: after the SDK's flexible-checksums middleware has added them.
        { step: 'build', priority: 'low', name: 'dropPresignedBodyChecksums' },
      );
      const url = await getSignedUrl(client, command, {
        expiresIn: expiresInSeconds,
        signingDate: new Date(signedAt),
        signableHeaders: SIGNED_UPLOAD_HEADERS,
      });
      return {
        url,
        expiresAt: new Date(signedAt + expiresInSeconds * 1000).toISOString(),
        headers: { 'Content-Type': contentType, 'Content-Length': String(contentLength) },
      };
    },

    async head(key) {
      try {
        const output = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return {
          contentLength: output.ContentLength ?? 0,
          ...(output.ContentType !== undefined && { contentType: output.ContentType }),
        };
      } catch (error) {
        // A HEAD response has no body, so a missing key arrives as a bare 404: NotFound.
        if (error instanceof NotFound || error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },

    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.length,
        }),
      );
    },

    async get(key, getOptions = {}) {
      const maxBytes = getOptions.maxBytes ?? DEFAULT_MAX_GET_BYTES;
      let output: GetObjectCommandOutput;
      try {
        output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (error instanceof NoSuchKey || error instanceof NotFound) return undefined;
        throw error;
      }
      const body = output.Body as (AsyncIterable<Uint8Array> & { destroy?: () => void }) | undefined;
      if (!body) return Buffer.alloc(0);
      if ((output.ContentLength ?? 0) > maxBytes) {
        body.destroy?.();
        throw new ObjectTooLargeError(key, maxBytes);
      }
      const chunks: Uint8Array[] = [];
      let total = 0;
      for await (const chunk of body) {
        total += chunk.length;
        // Content-Length is absent on some responses: count as well.
        if (total > maxBytes) {
          body.destroy?.();
          throw new ObjectTooLargeError(key, maxBytes);
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks, total);
    },

    async delete(key) {
      // S3 answers 204 whether or not the key exists, so this is idempotent as it stands.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}

/**
 * A client that computes request checksums by default (the SDK's WHEN_SUPPORTED) would put the
 * CRC32 of the command's empty body into the presigned URL, and S3 would then refuse every real
 * upload (BadDigest). The uploader's bytes are unknown at signing time, so no checksum is signed.
 */
function dropBodyChecksums(request: unknown): void {
  const headers = (request as { headers?: Record<string, string> } | undefined)?.headers;
  if (!headers) return;
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower.startsWith('x-amz-checksum-') || lower === 'x-amz-sdk-checksum-algorithm') delete headers[name];
  }
}
