import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Logger } from '../ports/logger.js';
import { type InvocationContext, makeInvocationLogger } from './invocation-logger.js';

/**
 * An SQS consumer with partial batch responses: each record's JSON body goes to `handle`, with a
 * logger carrying the invocation's and the message's ids; a record whose handling threw is logged
 * and reported, so SQS delivers it again (and, past its receive limit, moves it to the dead-letter
 * queue). The others are done. `concurrent` handles the records of a batch at once (they are
 * independent posts); otherwise one after another.
 */
export function makeSqsBatchHandler<T>(
  what: string,
  /** `batch` is the whole event the message came in (a consumer may share work among its records). */
  handle: (message: T, logger: Logger, batch: SQSEvent) => Promise<unknown>,
  options: { concurrent: boolean; logger: Logger },
) {
  const invocationLogger = makeInvocationLogger(options.logger);
  return async function handleBatch(event: SQSEvent, context?: InvocationContext): Promise<SQSBatchResponse> {
    const log = invocationLogger(context);
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    const handleRecord = async (record: SQSEvent['Records'][number]) => {
      const recordLog = log.with({ messageId: record.messageId });
      try {
        await handle(JSON.parse(record.body) as T, recordLog, event);
      } catch (error) {
        recordLog.error(`${what} failed; the message will be retried`, { error });
        failures.push({ itemIdentifier: record.messageId });
      }
    };
    if (options.concurrent) await Promise.all(event.Records.map(handleRecord));
    else for (const record of event.Records) await handleRecord(record);
    return { batchItemFailures: failures };
  };
}
