import '../shared/runtime/source-maps-on-error.js';
import '../shared/runtime/with-tracing.js';
import { deliveryFromEnv } from '../shared/runtime/delivery-from-env.js';

/** The media import queue (SQS, partial batch responses): fetches media imported by URL. */
export const handler = deliveryFromEnv().handleImportBatch;
