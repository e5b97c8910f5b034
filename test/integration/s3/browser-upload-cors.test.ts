import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Local, startS3Local } from '../../../infra/local/s3-local.js';
import { makeS3Client } from '../../../shared/adapters/s3/client.js';
import { makeS3ObjectStorage } from '../../../shared/adapters/s3/s3-object-storage.js';
import { type ObjectStorage, objectKey } from '../../../shared/ports/object-storage.js';

const BUCKET = 'media';
const DASHBOARD = 'http://127.0.0.1:43210';
const ELSEWHERE = 'https://evil.example';

/** What a browser sends before a cross-origin PUT with a Content-Type that is not a form's. */
function preflight(url: string, origin: string, headers = 'content-type') {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'PUT',
      'Access-Control-Request-Headers': headers,
    },
  });
}

/**
 * The local host's s3rver takes the browser's direct upload as the AWS bucket does: the preflight
 * is answered (the SigV4 check in front lets OPTIONS through, as S3 asks no credentials of it) for
 * the dashboard's origin and refused for any other, and the PUT's answer carries the CORS headers.
 */
describe("s3rver's CORS for uploads from the dashboard's origin", () => {
  let directory: string;
  let s3: S3Local;
  let client: S3Client;
  let storage: ObjectStorage;
  const signed = async () => {
    const key = objectKey('ten_cors', 'wks_cors', `med_${randomUUID()}`);
    return storage.presignPut(key, { contentType: 'image/png', contentLength: 5, expiresInSeconds: 60 });
  };

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 's3-cors-'));
    s3 = await startS3Local({ directory, buckets: [BUCKET] });
    client = makeS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    storage = makeS3ObjectStorage(client, BUCKET);
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('refuses a preflight while no origin is allowed', async () => {
    // Act
    const answer = await preflight((await signed()).url, DASHBOARD);

    // Assess
    expect(answer.status).toBe(403);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("answers the dashboard's preflight for a PUT with Content-Type, once allowed", async () => {
    // Prepare
    await s3.allowBrowserUploadsFrom([DASHBOARD]);

    // Act
    const answer = await preflight((await signed()).url, DASHBOARD);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).not.toBeNull();
    expect(answer.headers.get('access-control-allow-methods')).toBe('PUT');
    expect(answer.headers.get('access-control-allow-headers')).toBe('content-type');
  });

  it('refuses the preflight of another origin, and of a header the rule does not allow', async () => {
    // Prepare
    await s3.allowBrowserUploadsFrom([DASHBOARD]);
    const { url } = await signed();

    // Act
    const foreign = await preflight(url, ELSEWHERE);
    const unlisted = await preflight(url, DASHBOARD, 'content-type,x-amz-meta-owner');

    // Assess
    expect(foreign.status).toBe(403);
    expect(unlisted.status).toBe(403);
  });

  it("stores the browser's PUT and answers it with the origin allowed and ETag readable", async () => {
    // Prepare
    await s3.allowBrowserUploadsFrom([DASHBOARD]);
    const issued = await signed();

    // Act
    const put = await fetch(issued.url, {
      method: 'PUT',
      headers: { ...issued.headers, Origin: DASHBOARD },
      body: Buffer.from('12345'),
    });

    // Assess
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
    expect(put.headers.get('access-control-expose-headers')).toBe('ETag');
  });
});
