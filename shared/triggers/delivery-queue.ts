import type { DeliveryMessage } from '../ports/queues.js';
import { type DeliveryDeps, makeDeliverPost } from '../services/delivery/deliver-post.js';
import { makeSqsBatchHandler } from './sqs-batch.js';

/** The delivery queue (SQS): one message per post, the posts of a batch delivered at once. */
export function makeDeliveryWorker(deps: DeliveryDeps) {
  return makeSqsBatchHandler<DeliveryMessage>('delivery', makeDeliverPost(deps), {
    concurrent: true,
    logger: deps.logger,
  });
}
