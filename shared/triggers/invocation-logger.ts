import type { Context } from 'aws-lambda';
import type { Logger } from '../ports/logger.js';

/** The parts of a Lambda context a log line carries; absent on the local host. */
export type InvocationContext = Pick<Context, 'awsRequestId' | 'functionName'>;

/**
 * A logger per invocation of a background handler: its lines carry the function, the Lambda
 * request id and whether this invocation was the cold start, as the HTTP handlers' lines do.
 */
export function makeInvocationLogger(base: Logger): (context?: InvocationContext) => Logger {
  let coldStart = true;
  return (context) => {
    if (!context) return base;
    const logger = base.with({
      function: context.functionName,
      lambdaRequestId: context.awsRequestId,
      coldStart,
    });
    coldStart = false;
    return logger;
  };
}
