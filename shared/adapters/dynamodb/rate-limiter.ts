import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  limitFor,
  type RateLimitDecision,
  secondsUntilReset,
  windowAt,
} from '../../domain/rate-limit-policy.js';
import type { Clock } from '../../ports/clock.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';

/** Counters outlive their window by this much before TTL may delete them. */
const COUNTER_GRACE_SECONDS = 120;

/**
 * Fixed one-minute windows, one counter item per tenant, family and window. A request costs
 * exactly one conditional UpdateItem: the increment happens only while the count is under the
 * limit, so concurrent requests can never push it past the limit.
 */
export function makeDynamoRateLimiter(
  db: DynamoDBDocumentClient,
  tableName: string,
  clock: Clock,
): RateLimiter {
  return {
    async consume(tenantId, family, tier): Promise<RateLimitDecision> {
      const now = clock.now();
      const window = windowAt(now);
      const limit = limitFor(family, tier);
      const resetEpochSeconds = Math.ceil(window.endMs / 1000);
      const retryAfterSeconds = secondsUntilReset(window, now);
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: `${tenantId}#${family}#${window.startMs}` },
            UpdateExpression: 'ADD #count :one SET expiresAt = if_not_exists(expiresAt, :expires)',
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: {
              ':one': 1,
              ':limit': limit,
              ':expires': resetEpochSeconds + COUNTER_GRACE_SECONDS,
            },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        const count = Number(Attributes?.count ?? limit);
        return {
          allowed: true,
          limit,
          remaining: Math.max(0, limit - count),
          resetEpochSeconds,
          retryAfterSeconds,
        };
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) {
          return { allowed: false, limit, remaining: 0, resetEpochSeconds, retryAfterSeconds };
        }
        throw error;
      }
    },
  };
}
