import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Local, startS3Local } from '../../../infra/local/s3-local.js';
import { makeS3Client } from '../../../shared/adapters/s3/client.js';
import { makeS3MediaBytes } from '../../../shared/adapters/s3/s3-media-bytes.js';
import { makeS3ObjectStorage } from '../../../shared/adapters/s3/s3-object-storage.js';
import type { MediaBytes } from '../../../shared/ports/media-bytes.js';

const BUCKET = 'media';
const KEY = 't/ten_bytes/w/wks_bytes/m/med_video';
const SIZE = 3 * 1024 * 1024 + 17;
const content = Buffer.from(Array.from({ length: SIZE }, (_, i) => (i * 7) % 251));
const signal = () => new AbortController().signal;

describe('media bytes from S3 (s3rver)', () => {
  let directory: string;
  let s3: S3Local;
  let client: S3Client;
  let bytes: MediaBytes;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 's3-media-bytes-'));
    s3 = await startS3Local({ directory, buckets: [BUCKET] });
    client = makeS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    await makeS3ObjectStorage(client, BUCKET).put(KEY, content, 'video/mp4');
    bytes = makeS3MediaBytes(client, BUCKET);
  });

  afterAll(async () => {
    client?.destroy();
    await s3?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads the object chunk by chunk, each range exactly', async () => {
    const chunk = 1024 * 1024;
    const parts: Uint8Array[] = [];
    for (let start = 0; start < SIZE; start += chunk) {
      parts.push(await bytes.readRange(KEY, start, Math.min(SIZE, start + chunk), signal()));
    }
    expect(parts.map((part) => part.length)).toEqual([chunk, chunk, chunk, 17]);
    expect(Buffer.concat(parts).equals(content)).toBe(true);
  });

  it('reads a range in the middle, and nothing for an empty one', async () => {
    expect(
      Buffer.from(await bytes.readRange(KEY, 1000, 1010, signal())).equals(content.subarray(1000, 1010)),
    ).toBe(true);
    expect(await bytes.readRange(KEY, 5, 5, signal())).toHaveLength(0);
  });

  it('refuses a range past the end or backwards', async () => {
    await expect(bytes.readRange(KEY, SIZE - 10, SIZE + 10, signal())).rejects.toThrow(RangeError);
    await expect(bytes.readRange(KEY, 10, 5, signal())).rejects.toThrow(RangeError);
  });

  it('streams the whole object', async () => {
    const stream = await bytes.stream(KEY, signal());
    const parts: Uint8Array[] = [];
    for await (const part of stream) parts.push(part);
    expect(Buffer.concat(parts).equals(content)).toBe(true);
  });

  it('rejects for a missing object and for an aborted read', async () => {
    await expect(bytes.readRange('t/ten_bytes/w/wks_bytes/m/med_none', 0, 10, signal())).rejects.toThrow();
    await expect(bytes.readRange(KEY, 0, 10, AbortSignal.abort(new Error('stopped')))).rejects.toThrow();
  });
});
