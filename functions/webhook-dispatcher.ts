import '../shared/runtime/source-maps-on-error.js';
import '../shared/runtime/with-tracing.js';
import { deliveryFromEnv } from '../shared/runtime/delivery-from-env.js';

/** The webhook-delivery queue: one signed POST per message, retries queued with a delay (SQS, partial batch responses). */
export const handler = deliveryFromEnv().handleWebhookBatch;
