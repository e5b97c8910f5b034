import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

/**
 * An SQS consumer with partial batch responses: each record's JSON body goes to `handle`; a record
 * whose handling threw is logged and reported, so SQS delivers it again (and, past its receive
 * limit, moves it to the dead-letter queue). The others are done. `concurrent` handles the records
 * of a batch at once (they are independent posts); otherwise one after another.
 */
export function makeSqsBatchHandler<T>(
  what: string,
  handle: (message: T) => Promise<unknown>,
  options: { concurrent: boolean },
) {
  return async function handleBatch(event: SQSEvent): Promise<SQSBatchResponse> {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    const handleRecord = async (record: SQSEvent['Records'][number]) => {
      try {
        await handle(JSON.parse(record.body) as T);
      } catch (error) {
        console.error(
          JSON.stringify({
            level: 'error',
            msg: `${what} failed; the message will be retried`,
            messageId: record.messageId,
            errorName: error instanceof Error ? error.name : 'unknown',
            errorMessage: error instanceof Error ? error.message : String(error),
          }),
        );
        failures.push({ itemIdentifier: record.messageId });
      }
    };
    if (options.concurrent) await Promise.all(event.Records.map(handleRecord));
    else for (const record of event.Records) await handleRecord(record);
    return { batchItemFailures: failures };
  };
}
