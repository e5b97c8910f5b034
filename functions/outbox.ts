import '../shared/runtime/source-maps-on-error.js';
import '../shared/runtime/with-tracing.js';
import { deliveryFromEnv } from '../shared/runtime/delivery-from-env.js';

/** The main table's DynamoDB stream: the transactional outbox (partial batch responses). */
export const handler = deliveryFromEnv().handleStream;
