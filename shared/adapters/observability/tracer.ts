import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './powertools-logger.js';

/**
 * One tracer per Lambda module. Powertools turns itself off outside Lambda (no AWS_EXECUTION_ENV),
 * so the local host and the tests send nothing anywhere.
 */
export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME });

/** Every AWS SDK client goes through here, so each call is a subsegment of the invocation's trace. */
export function traced<T>(client: T): T {
  return tracer.captureAWSv3Client(client);
}
