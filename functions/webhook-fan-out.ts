import '../shared/runtime/source-maps-on-error.js';
import '../shared/runtime/with-tracing.js';
import { deliveryFromEnv } from '../shared/runtime/delivery-from-env.js';

/** The events queue: each event into the feed and one delivery per subscribed webhook (SQS, partial batch responses). */
export const handler = deliveryFromEnv().handleEventsBatch;
