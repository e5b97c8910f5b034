import { SendMessageCommand, type SendMessageCommandInput, type SQSClient } from '@aws-sdk/client-sqs';
import { parseTraceHeader } from '../../domain/trace-header.js';
import type { MessageQueue } from '../../ports/queues.js';

/** SQS's own limit for a per-message delay (15 minutes). */
export const MAX_DELAY_SECONDS = 900;

/**
 * The `DelaySeconds` to send: fractional delays are rounded up, so a message is never visible
 * before the time the caller asked for. Out-of-range values throw instead of being clamped: a
 * delay past 900 s means the caller meant a later time than SQS can hold, and silently shortening
 * it would deliver early; a bug there should surface, not hide.
 */
export function toDelaySeconds(delaySeconds: number): number {
  if (!Number.isFinite(delaySeconds) || delaySeconds < 0 || delaySeconds > MAX_DELAY_SECONDS) {
    throw new RangeError(`delaySeconds must be between 0 and ${MAX_DELAY_SECONDS}, got ${delaySeconds}.`);
  }
  // `+ 0` turns a -0 (Math.ceil(-0)) into 0.
  return Math.ceil(delaySeconds) + 0;
}

/**
 * A standard SQS queue of JSON messages. The client is the caller's, built once per module.
 * Per-message delays apply to standard queues only (FIFO queues ignore them), which is what the
 * delivery and webhook queues are.
 */
export function makeSqsQueue<T>(client: SQSClient, queueUrl: string): MessageQueue<T> {
  return {
    async send(message, options) {
      const input: SendMessageCommandInput = {
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(message),
      };
      if (options?.delaySeconds !== undefined) input.DelaySeconds = toDelaySeconds(options.delaySeconds);
      // SQS refuses a malformed AWSTraceHeader: a header that is not X-Ray's shape is left out.
      const trace = parseTraceHeader(options?.trace);
      if (trace)
        input.MessageSystemAttributes = { AWSTraceHeader: { DataType: 'String', StringValue: trace } };
      await client.send(new SendMessageCommand(input));
    },
  };
}
