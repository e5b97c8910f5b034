import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoConnection {
  region: string;
  /** Set for DynamoDB Local; absent in AWS. */
  endpoint?: string;
}

/** Built once per module (cold start), never per request. */
export function makeDynamoClient(connection: DynamoConnection): DynamoDBClient {
  return new DynamoDBClient({
    region: connection.region,
    ...(connection.endpoint && {
      endpoint: connection.endpoint,
      // DynamoDB Local accepts any credentials; fixed ones keep it from reading the machine's.
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  });
}

export function makeDocumentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
