import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Local, startS3Local } from '../../../infra/local/s3-local.js';
import { makeS3Client } from '../../../shared/adapters/s3/client.js';
import { makeS3MediaUrls, unconfiguredMediaUrls } from '../../../shared/adapters/s3/s3-media-urls.js';
import { makeS3ObjectStorage } from '../../../shared/adapters/s3/s3-object-storage.js';
import { ServiceUnavailableError } from '../../../shared/domain/errors.js';

const BUCKET = 'media';
const KEY = 't/ten_urls/w/wks_urls/m/med_photo';
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(1000, 3)]);

describe('presigned media URLs from S3 (s3rver)', () => {
  let directory: string;
  let s3: S3Local;
  let client: S3Client;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 's3-media-urls-'));
    s3 = await startS3Local({ directory, buckets: [BUCKET] });
    client = makeS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    await makeS3ObjectStorage(client, BUCKET).put(KEY, JPEG, 'image/jpeg');
  });

  afterAll(async () => {
    client?.destroy();
    await s3?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('a GET of that one object, for the time asked, readable without credentials', async () => {
    const url = new URL(await makeS3MediaUrls(client, BUCKET).presignGet(KEY, 900));

    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await answer.arrayBuffer()).equals(JPEG)).toBe(true);
  });

  it('the URL reads nothing else: another key with its signature is refused', async () => {
    const url = new URL(await makeS3MediaUrls(client, BUCKET).presignGet(KEY, 900));
    url.pathname = url.pathname.replace('med_photo', 'med_other');
    expect((await fetch(url)).status).toBe(403);
  });

  it.each([0, -5, 1.5, 3601])('refuses a lifetime of %s seconds (1 s to an hour)', async (seconds) => {
    await expect(makeS3MediaUrls(client, BUCKET).presignGet(KEY, seconds)).rejects.toBeInstanceOf(RangeError);
  });

  it('without a media bucket, says why', async () => {
    await expect(unconfiguredMediaUrls().presignGet(KEY, 900)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });
});
