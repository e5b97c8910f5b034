import { S3Client } from '@aws-sdk/client-s3';

export interface S3Connection {
  region: string;
  /** Set for s3rver (or LocalStack); absent in AWS. */
  endpoint?: string;
}

/** The key pair s3rver knows (its built-in account); the local host signs with nothing else. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** Built once per module (cold start), never per request. */
export function makeS3Client(connection: S3Connection): S3Client {
  return new S3Client({
    region: connection.region,
    ...(connection.endpoint && {
      endpoint: connection.endpoint,
      // s3rver listens on 127.0.0.1: path-style URLs need no wildcard DNS for bucket subdomains.
      forcePathStyle: true,
      // Fixed credentials keep the client from reading the machine's.
      credentials: { ...LOCAL_S3_CREDENTIALS },
    }),
  });
}
