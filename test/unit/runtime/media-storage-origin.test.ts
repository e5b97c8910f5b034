import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeS3Client } from '../../../shared/adapters/s3/client.js';
import { makeS3ObjectStorage } from '../../../shared/adapters/s3/s3-object-storage.js';
import { mediaStorageOrigin } from '../../../shared/runtime/media-storage-origin.js';

/** A bucket name as CDK generates it: lower case, digits and hyphens, no dots. */
const BUCKET = 'socialpublishing-dev-mediabucketbcbb02ba-1x2y3z4w5v6u';

/** Where the service's own presigner sends a browser's PUT for `region` (no network: signing is local). */
async function presignedOrigin(region: string, endpoint?: string): Promise<string> {
  const client = makeS3Client({ region, ...(endpoint && { endpoint }) });
  try {
    const storage = makeS3ObjectStorage(client, BUCKET);
    const { url } = await storage.presignPut('t/ten/w/wks/m/med', {
      contentType: 'image/png',
      contentLength: 10,
      expiresInSeconds: 60,
    });
    return new URL(url).origin;
  } finally {
    client.destroy();
  }
}

/**
 * The dashboard's CSP allows `connect-src` to this origin only: it must be exactly where the
 * presigner points uploads, or a browser's PUT is refused by the page's own policy.
 */
describe('mediaStorageOrigin', () => {
  beforeAll(() => {
    // Fake credentials: the presigner signs with them; nothing is sent.
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAIOSFODNN7EXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');
  });
  afterAll(() => vi.unstubAllEnvs());

  it.each(['us-east-1', 'eu-west-1', 'ap-southeast-2', 'cn-north-1'])(
    'is the origin of the presigned upload URLs in AWS (%s)',
    async (region) => {
      // Act
      const origin = mediaStorageOrigin({ region, mediaBucket: BUCKET });

      // Assess
      expect(origin).toBe(await presignedOrigin(region));
    },
  );

  it("is s3rver's loopback origin on the local host, where URLs are path-style", async () => {
    // Prepare
    const s3Endpoint = 'http://127.0.0.1:45123';

    // Act
    const origin = mediaStorageOrigin({ region: 'us-east-1', mediaBucket: BUCKET, s3Endpoint });

    // Assess
    expect(origin).toBe('http://127.0.0.1:45123');
    expect(origin).toBe(await presignedOrigin('us-east-1', s3Endpoint));
  });

  it('is undefined without a bucket: there is nowhere to upload to', () => {
    expect(mediaStorageOrigin({ region: 'eu-west-1' })).toBeUndefined();
  });
});
