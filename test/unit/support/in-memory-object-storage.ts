import type { Clock } from '../../../shared/ports/clock.js';
import {
  DEFAULT_MAX_GET_BYTES,
  type ObjectStorage,
  ObjectTooLargeError,
  type PresignedPut,
  type PresignPutOptions,
  type StoredObject,
} from '../../../shared/ports/object-storage.js';

/** SigV4's longest presigned lifetime, which the S3 adapter enforces too. */
const MAX_EXPIRES_SECONDS = 7 * 24 * 3600;

interface StoredEntry {
  body: Buffer;
  contentType?: string;
}

/**
 * Object storage in memory for unit tests, with the S3 adapter's contract: a presigned PUT is signed
 * at a whole second of the injected clock and expires `expiresInSeconds` later, for exactly the
 * declared type and length (`uploadWithUrl` plays the uploader and is refused otherwise, as S3
 * refuses it); `head` and `get` answer undefined for a missing key; `delete` of nothing is fine.
 */
export class InMemoryObjectStorage implements ObjectStorage {
  private readonly objects = new Map<string, StoredEntry>();
  private readonly presigned = new Map<
    string,
    { key: string; options: PresignPutOptions; expiresMs: number }
  >();
  /** Every key `delete` was asked to remove, in order. */
  readonly deleted: string[] = [];

  constructor(private readonly clock: Clock) {}

  async presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut> {
    if (!options.contentType) throw new RangeError('contentType must not be empty.');
    if (!Number.isSafeInteger(options.contentLength) || options.contentLength < 0) {
      throw new RangeError(`contentLength must be a whole number of bytes, not ${options.contentLength}.`);
    }
    if (
      !Number.isInteger(options.expiresInSeconds) ||
      options.expiresInSeconds < 1 ||
      options.expiresInSeconds > MAX_EXPIRES_SECONDS
    ) {
      throw new RangeError(
        `expiresInSeconds must be 1 to ${MAX_EXPIRES_SECONDS}, not ${options.expiresInSeconds}.`,
      );
    }
    const signedAt = Math.floor(this.clock.now() / 1000) * 1000;
    const expiresMs = signedAt + options.expiresInSeconds * 1000;
    const url = `https://storage.invalid/${key}?signature=${this.presigned.size + 1}`;
    this.presigned.set(url, { key, options: { ...options }, expiresMs });
    return {
      url,
      expiresAt: new Date(expiresMs).toISOString(),
      headers: { 'Content-Type': options.contentType, 'Content-Length': String(options.contentLength) },
    };
  }

  /**
   * The uploader's PUT to a presigned URL: stored only while the URL is valid and only with the
   * signed type and length (else a RangeError, as S3 answers 403).
   */
  uploadWithUrl(url: string, body: Buffer, contentType: string): void {
    const grant = this.presigned.get(url);
    if (!grant) throw new RangeError('No such presigned URL.');
    if (this.clock.now() >= grant.expiresMs) throw new RangeError('The presigned URL has expired.');
    if (contentType !== grant.options.contentType || body.length !== grant.options.contentLength) {
      throw new RangeError('The upload does not match the signed Content-Type and Content-Length.');
    }
    this.objects.set(grant.key, { body: Buffer.from(body), contentType });
  }

  async head(key: string): Promise<StoredObject | undefined> {
    const entry = this.objects.get(key);
    if (!entry) return undefined;
    return {
      contentLength: entry.body.length,
      ...(entry.contentType !== undefined && { contentType: entry.contentType }),
    };
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    this.objects.set(key, { body: Buffer.from(body), contentType });
  }

  /** An object put behind the service's back (what a storage that ignored the signature would hold). */
  putRaw(key: string, body: Buffer, contentType?: string): void {
    this.objects.set(key, { body: Buffer.from(body), ...(contentType !== undefined && { contentType }) });
  }

  async get(key: string, options: { maxBytes?: number } = {}): Promise<Buffer | undefined> {
    const entry = this.objects.get(key);
    if (!entry) return undefined;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_GET_BYTES;
    if (entry.body.length > maxBytes) throw new ObjectTooLargeError(key, maxBytes);
    return Buffer.from(entry.body);
  }

  async delete(key: string): Promise<void> {
    this.deleted.push(key);
    this.objects.delete(key);
  }

  /** The keys now stored. */
  keys(): string[] {
    return [...this.objects.keys()].sort();
  }
}
