import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { itemOfStreamImage } from '../adapters/dynamodb/stream-image.js';
import type { Logger } from '../ports/logger.js';
import { makeOutbox, type OutboxChange, type OutboxDeps } from '../services/delivery/outbox.js';
import { isOutboxEntity } from '../services/delivery/outbox-entities.js';
import { type InvocationContext, makeInvocationLogger } from './invocation-logger.js';

/**
 * The change a stream record reports to the outbox; undefined for a removal (TTL) or an item of
 * no interest that got past a filter: nothing to do.
 */
function changeOf(record: DynamoDBRecord): OutboxChange | undefined {
  const after = itemOfStreamImage<OutboxChange['after']>(record.dynamodb?.NewImage);
  if (!after || !isOutboxEntity(after.entity)) return undefined;
  const before = itemOfStreamImage<OutboxChange['after']>(record.dynamodb?.OldImage);
  // The item's type tag names the entity it stores (toItem in shared/adapters/dynamodb/keys.ts).
  return { entity: after.entity, before: before?.value, after: after.value } as OutboxChange;
}

/**
 * The event source mapping's filter, as the local host's poller applies it to a stream record's
 * new image (a removal has none, and the outbox has nothing to do for one).
 */
export function outboxAcceptsNewImage(
  newImage: Readonly<Record<string, { S?: string }>> | undefined,
): boolean {
  return isOutboxEntity(newImage?.entity?.S);
}

/**
 * The main table's stream (DynamoDB Streams, partial batch responses) into the outbox, one record
 * after another. A failing record stops the batch and is reported, so Lambda retries from it and
 * the order of a post's changes is kept.
 */
export function makeOutboxStreamHandler(deps: OutboxDeps & { logger: Logger }) {
  const applyChange = makeOutbox(deps);
  const invocationLogger = makeInvocationLogger(deps.logger);
  const apply = async (record: DynamoDBRecord) => {
    const change = changeOf(record);
    if (change) await applyChange(change);
  };

  return async function handleStream(
    event: DynamoDBStreamEvent,
    context?: InvocationContext,
  ): Promise<DynamoDBBatchResponse> {
    const log = invocationLogger(context);
    for (const record of event.Records) {
      try {
        await apply(record);
      } catch (error) {
        log.error('outbox record failed; it will be retried', {
          sequenceNumber: record.dynamodb?.SequenceNumber,
          eventName: record.eventName,
          error,
        });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  };
}
