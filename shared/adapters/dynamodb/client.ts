import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoConnection {
  region: string;
  /** Set for DynamoDB Local; absent in AWS. */
  endpoint?: string;
}

/** Told of each client made while `withDynamoClientsObserved` runs (a benchmark's call counter). */
const observers = new Set<(client: DynamoDBClient) => void>();

/**
 * Runs `build` (synchronous: a host building its deps) with `observe` told of every DynamoDB client
 * made meanwhile, so a benchmark or a test can count the calls of clients it cannot reach. Nothing
 * in a deployment calls it.
 */
export function withDynamoClientsObserved<T>(observe: (client: DynamoDBClient) => void, build: () => T): T {
  observers.add(observe);
  try {
    return build();
  } finally {
    observers.delete(observe);
  }
}

/** Built once per module (cold start), never per request. */
export function makeDynamoClient(connection: DynamoConnection): DynamoDBClient {
  const client = new DynamoDBClient({
    region: connection.region,
    ...(connection.endpoint && {
      endpoint: connection.endpoint,
      // DynamoDB Local accepts any credentials; fixed ones keep it from reading the machine's.
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  });
  // The SDK's logger middleware copies every input and output through the schema's sensitive-data
  // filter on every call, for a logger that discards it (we never give the client one): about 2 %
  // of the local host's CPU under the throughput benchmark.
  client.middlewareStack.remove('loggerMiddleware');
  for (const observe of observers) observe(client);
  return client;
}

export function makeDocumentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
