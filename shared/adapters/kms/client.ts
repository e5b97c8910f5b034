import { KMSClient } from '@aws-sdk/client-kms';

export interface KmsConnection {
  region: string;
  /** Set for LocalStack; absent in AWS. */
  endpoint?: string;
}

/** Built once per module (cold start), never per request. */
export function makeKmsClient(connection: KmsConnection): KMSClient {
  return new KMSClient({
    region: connection.region,
    ...(connection.endpoint && {
      endpoint: connection.endpoint,
      // An emulator accepts any credentials; fixed ones keep the client from reading the machine's.
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  });
}
