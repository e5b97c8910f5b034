import type { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './powertools-logger.js';

/**
 * Powertools traces only in Lambda (AWS_EXECUTION_ENV set) and unless POWERTOOLS_TRACE_ENABLED is
 * "false"; elsewhere its tracer is off but importing it still loads the X-Ray SDK, whose async
 * hooks tax every promise of the process (6.8 % of the local host's CPU under bench/throughput.ts).
 * So the local host and the tests never load it; Lambda does, before the handler's first call.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  return (
    (env.AWS_EXECUTION_ENV ?? '') !== '' && (env.POWERTOOLS_TRACE_ENABLED ?? '').toLowerCase() !== 'false'
  );
}

const tracer: Tracer | undefined = tracingWanted(process.env)
  ? new (await import('@aws-lambda-powertools/tracer')).Tracer({
      serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
    })
  : undefined;

/** Every AWS SDK client goes through here, so each call is a subsegment of the invocation's trace. */
export function traced<T>(client: T): T {
  return tracer ? tracer.captureAWSv3Client(client) : client;
}
