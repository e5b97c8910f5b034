import { randomUUID } from 'node:crypto';
import type { ApiContext } from '../../shared/http/request-state.js';

/** A fresh Lambda context per invocation, as the Lambda runtime gives one. */
export function makeLambdaContext(functionName: string, timeoutMs = 29_000): ApiContext {
  const startedAt = Date.now();
  const awsRequestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, timeoutMs - (Date.now() - startedAt)),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
