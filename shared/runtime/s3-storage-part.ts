import { traced } from '../adapters/observability/tracer.js';
import { makeS3Client } from '../adapters/s3/client.js';
import { makeS3ObjectStorage } from '../adapters/s3/s3-object-storage.js';
import { makeUnconfiguredStorage } from '../adapters/s3/unconfigured-storage.js';
import type { DepsPart } from './deps-parts.js';

/** The media bucket through S3 (DynamoDB Local's companion s3rver when the config names an endpoint); 503 without MEDIA_BUCKET. */
export const s3StoragePart: DepsPart = ({ config }) => ({
  storage: config.mediaBucket
    ? makeS3ObjectStorage(
        traced(makeS3Client({ region: config.region, endpoint: config.s3Endpoint })),
        config.mediaBucket,
      )
    : makeUnconfiguredStorage(),
});
