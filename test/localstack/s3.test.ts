import { randomUUID } from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeS3Client } from '../../shared/adapters/s3/client.js';
import { makeS3ObjectStorage } from '../../shared/adapters/s3/s3-object-storage.js';
import { type ObjectStorage, objectKey } from '../../shared/ports/object-storage.js';
import { localstack, uniqueName } from './support.js';

const PNG = 'image/png';
const newKey = () => objectKey('ten_localstack', 'wks_localstack', `med_${randomUUID()}`);
const bytes = (length: number) => Buffer.from(Array.from({ length }, (_, i) => i % 251));

describe('S3 object storage against LocalStack', () => {
  let client: S3Client;
  let bucket: string;
  let storage: ObjectStorage;

  beforeAll(async () => {
    const { endpoint, region } = localstack();
    // The project's own factory: path-style addressing and fixed credentials, as for s3rver.
    client = makeS3Client({ region, endpoint });
    bucket = uniqueName('media');
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    storage = makeS3ObjectStorage(client, bucket);
  });

  afterAll(async () => {
    if (bucket) {
      const { Contents } = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      for (const object of Contents ?? []) {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
      }
      await client.send(new DeleteBucketCommand({ Bucket: bucket })).catch(() => undefined);
    }
    client?.destroy();
  });

  it('a presigned PUT with the signed headers stores the object; head and get show it', async () => {
    // Prepare
    const key = newKey();
    const body = bytes(1000);

    // Act
    const presigned = await storage.presignPut(key, {
      contentType: PNG,
      contentLength: body.length,
      expiresInSeconds: 300,
    });
    const upload = await fetch(presigned.url, { method: 'PUT', headers: presigned.headers, body });
    const stored = await storage.head(key);
    const read = await storage.get(key);

    // Assess
    expect(upload.status).toBe(200);
    expect(presigned.headers).toEqual({ 'Content-Type': PNG, 'Content-Length': '1000' });
    expect(stored).toEqual({ contentType: PNG, contentLength: 1000 });
    expect(read?.equals(body)).toBe(true);
  });

  it('head and get of a key with nothing stored answer undefined; delete is idempotent', async () => {
    // Prepare
    const key = newKey();
    await storage.put(key, bytes(10), PNG);

    // Act
    await storage.delete(key);
    await storage.delete(key);

    // Assess
    expect(await storage.head(key)).toBeUndefined();
    expect(await storage.get(key)).toBeUndefined();
  });
});
