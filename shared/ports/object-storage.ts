import { mediaObjectKey } from '../domain/media.js';

/**
 * Object storage for media (S3 in AWS, s3rver on the local host). Keys come from `objectKey`, so
 * every object of a tenant sits under `t/<tenantId>/` and IAM can scope a role to that prefix.
 */
export interface ObjectStorage {
  /**
   * A presigned PUT for `key`, signed for exactly this Content-Type and Content-Length: storage
   * refuses an upload with another type or another size. The uploader must send `headers`.
   */
  presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut>;
  /** What is stored at `key`, or undefined when nothing is. */
  head(key: string): Promise<StoredObject | undefined>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * The object's bytes, or undefined when nothing is stored. Reads into memory, so it refuses
   * (ObjectTooLargeError) an object above `maxBytes` (DEFAULT_MAX_GET_BYTES unless given).
   */
  get(key: string, options?: { maxBytes?: number }): Promise<Buffer | undefined>;
  /** Removes the object; nothing happens when there is none. */
  delete(key: string): Promise<void>;
}

export interface PresignPutOptions {
  contentType: string;
  /** The exact size in bytes; an upload of any other size is refused. */
  contentLength: number;
  /** 1 to 604800 (seven days, SigV4's ceiling). */
  expiresInSeconds: number;
}

export interface PresignedPut {
  url: string;
  /** ISO 8601; the instant the signature stops being accepted (whole seconds, as signed). */
  expiresAt: string;
  /** Signed headers the PUT must carry with these exact values (Content-Type, Content-Length). */
  headers: Record<string, string>;
}

export interface StoredObject {
  contentType?: string;
  contentLength: number;
}

/** The largest object `get` reads into memory unless told otherwise: the largest media (video, 1 GiB). */
export const DEFAULT_MAX_GET_BYTES = 1024 * 1024 * 1024;

/** `get` found an object larger than it may read into memory. */
export class ObjectTooLargeError extends Error {
  constructor(
    readonly key: string,
    readonly maxBytes: number,
  ) {
    super(`Object "${key}" is larger than ${maxBytes} bytes.`);
    this.name = 'ObjectTooLargeError';
  }
}

/**
 * The storage key of a media item: `t/<tenantId>/w/<workspaceId>/m/<mediaId>`. A segment holding
 * a slash (or nothing) would let one tenant's key reach into another's prefix, so it is refused.
 */
export function objectKey(tenantId: string, workspaceId: string, mediaId: string): string {
  for (const [name, value] of [
    ['tenantId', tenantId],
    ['workspaceId', workspaceId],
    ['mediaId', mediaId],
  ] as const) {
    if (value === '' || value.includes('/')) {
      throw new RangeError(`${name} must be a non-empty id without "/", not "${value}".`);
    }
  }
  return mediaObjectKey(tenantId, workspaceId, mediaId);
}

/**
 * Whether what is stored is what was declared (the confirm check, and the backstop should a
 * storage ever accept an upload its signature did not cover).
 */
export function matchesDeclared(
  stored: StoredObject | undefined,
  declared: { contentType: string; contentLength: number },
): boolean {
  return (
    stored !== undefined &&
    stored.contentLength === declared.contentLength &&
    stored.contentType === declared.contentType
  );
}
