import type { SQSEvent } from 'aws-lambda';
import type { ServiceEvent } from '../domain/events.js';
import {
  type FanOutDeps,
  makeFanOut,
  type SharedByBatch,
  shareWithinBatch,
} from '../services/webhooks/fan-out.js';
import { makeSqsBatchHandler } from './sqs-batch.js';

/**
 * The events queue (SQS): the events of a batch are independent, so they are handled at once; the
 * events of one workspace share one read of its webhooks (a post's two events cost one read, not
 * two, when they arrive together; a burst's events, one per batch), and the batch's events share
 * one write to the feed.
 */
export function makeFanOutConsumer(deps: FanOutDeps) {
  const fanOut = makeFanOut(deps);
  const sharedBy = new WeakMap<SQSEvent, SharedByBatch>();
  const sharedFor = (batch: SQSEvent) => {
    let shared = sharedBy.get(batch);
    if (!shared) {
      shared = shareWithinBatch(deps);
      sharedBy.set(batch, shared);
    }
    return shared;
  };
  return makeSqsBatchHandler<ServiceEvent>(
    'webhook fan-out',
    (event, logger, batch) => fanOut(event, logger, sharedFor(batch)),
    { concurrent: true, logger: deps.logger },
  );
}
