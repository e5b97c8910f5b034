import { makeDocumentClient, makeDynamoClient } from '../adapters/dynamodb/client.js';
import { makeDynamoUserStore } from '../adapters/dynamodb/user-store.js';
import { traced } from '../adapters/observability/tracer.js';
import type { UserStore } from '../ports/user-store.js';
import type { ServiceConfig } from './config.js';

/**
 * The dashboard's people in DynamoDB, from the same config as `makeDeps` (the main table, and the
 * rate-limits table for sign-in throttling). Its own client: `makeDeps` keeps its client to itself,
 * and a second one costs a few objects at cold start, no connection until the first call.
 */
export function makeUserStoreFromConfig(config: ServiceConfig): UserStore {
  const db = makeDocumentClient(
    traced(makeDynamoClient({ region: config.region, endpoint: config.dynamodbEndpoint })),
  );
  return makeDynamoUserStore(db, { main: config.tables.main, rateLimits: config.tables.rateLimits });
}
