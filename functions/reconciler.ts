import '../shared/runtime/source-maps-on-error.js';
import '../shared/runtime/with-tracing.js';
import type { Context } from 'aws-lambda';
import { deliveryFromEnv } from '../shared/runtime/delivery-from-env.js';

const { reconcile, invocationLogger } = deliveryFromEnv();

/** Every minute: take back posts of dead workers and re-drive lost messages; the report is logged. */
export const handler = async (_event: unknown, context: Context) =>
  reconcile({ logger: invocationLogger(context) });
