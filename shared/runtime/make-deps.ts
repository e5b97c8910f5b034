import { makeDynamoAccountQuotas } from '../adapters/dynamodb/account-quotas.js';
import { makeDocumentClient, makeDynamoClient } from '../adapters/dynamodb/client.js';
import { makeDynamoPostStore } from '../adapters/dynamodb/post-store.js';
import { makeDynamoRateLimiter } from '../adapters/dynamodb/rate-limiter.js';
import { makeDynamoTenancyStore } from '../adapters/dynamodb/tenancy-store.js';
import { type Clock, systemClock } from '../ports/clock.js';
import { makeAuthenticator } from '../services/authenticate.js';
import type { ServiceConfig } from './config.js';
import type { ServiceDeps } from './deps.js';

/** Wires the AWS adapters (or DynamoDB Local, when the config names an endpoint). */
export function makeDeps(config: ServiceConfig, clock: Clock = systemClock): ServiceDeps {
  const db = makeDocumentClient(
    makeDynamoClient({ region: config.region, endpoint: config.dynamodbEndpoint }),
  );
  const tenancy = makeDynamoTenancyStore(db, config.tables.main);
  return {
    clock,
    tenancy,
    posts: makeDynamoPostStore(db, config.tables),
    quotas: makeDynamoAccountQuotas(db, config.tables.rateLimits),
    rateLimiter: makeDynamoRateLimiter(db, config.tables.rateLimits, clock),
    authenticator: makeAuthenticator({ tenancy, clock, cacheTtlMs: config.authCacheTtlSeconds * 1000 }),
  };
}
