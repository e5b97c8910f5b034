import { traced } from '../adapters/observability/tracer.js';
import { makeS3Client } from '../adapters/s3/client.js';
import { makeS3MediaBytes, unconfiguredMediaBytes } from '../adapters/s3/s3-media-bytes.js';
import { makeS3ObjectStorage } from '../adapters/s3/s3-object-storage.js';
import { makeUnconfiguredStorage } from '../adapters/s3/unconfigured-storage.js';
import { makeVideoProbe } from '../adapters/video-probe/video-probe.js';
import type { DepsPart } from './deps-parts.js';

/** The media bucket through S3 (DynamoDB Local's companion s3rver when the config names an endpoint); 503 without MEDIA_BUCKET. */
export const s3StoragePart: DepsPart = ({ config }) => {
  if (!config.mediaBucket) {
    return { storage: makeUnconfiguredStorage(), videoProbe: makeVideoProbe(unconfiguredMediaBytes()) };
  }
  const client = traced(makeS3Client({ region: config.region, endpoint: config.s3Endpoint }));
  return {
    storage: makeS3ObjectStorage(client, config.mediaBucket),
    videoProbe: makeVideoProbe(makeS3MediaBytes(client, config.mediaBucket)),
  };
};
