import '../shared/runtime/source-maps-on-error.js';
import '../shared/runtime/with-tracing.js';
import { deliveryFromEnv } from '../shared/runtime/delivery-from-env.js';

/** The delivery queue (SQS, partial batch responses). */
export const handler = deliveryFromEnv().handleDeliveryBatch;
