import {
  type DispatchDeps,
  makeDispatchWebhook,
  type WebhookDispatchMessage,
} from '../services/webhooks/dispatch.js';
import { makeSqsBatchHandler } from './sqs-batch.js';

/**
 * The webhook-delivery queue (SQS): one message per attempt, the messages of a batch attempted at
 * once, so a slow receiver holds up only its own attempt (at most 5 s), never another receiver's.
 */
export function makeWebhookDispatcher(deps: DispatchDeps) {
  return makeSqsBatchHandler<WebhookDispatchMessage>('webhook dispatch', makeDispatchWebhook(deps), {
    concurrent: true,
    logger: deps.logger,
  });
}
