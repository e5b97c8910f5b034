import type { BatchWriteCommandInput, BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';

/** BatchWriteItem's own limit of requests per call. */
export const BATCH_WRITE_LIMIT = 25;

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

export interface WriteBatchesOptions {
  /** One BatchWriteItem call (the document client's `send` of a BatchWriteCommand). */
  writeBatch: (input: BatchWriteCommandInput) => Promise<Pick<BatchWriteCommandOutput, 'UnprocessedItems'>>;
  /** Calls per chunk before giving up on what DynamoDB keeps leaving unprocessed. Default 5. */
  attempts?: number;
  /** Wait before sending the unprocessed again: backoffMs · 2^n. Default 50 ms. */
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** DynamoDB kept leaving some requests unprocessed (throttling) after every attempt. */
export class UnprocessedWritesError extends Error {
  override readonly name = 'UnprocessedWritesError';
  constructor(
    readonly tableName: string,
    readonly unprocessed: number,
  ) {
    super(`${unprocessed} writes to ${tableName} were left unprocessed after every attempt.`);
  }
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Writes every request to one table with BatchWriteItem, 25 per call (the chunks at once), and
 * sends again, with backoff, what DynamoDB answers as unprocessed: it may leave any part of a
 * batch undone under throttling, and says so only in UnprocessedItems.
 */
export async function writeInBatches(
  tableName: string,
  requests: readonly WriteRequest[],
  options: WriteBatchesOptions,
): Promise<void> {
  const attempts = options.attempts ?? 5;
  const backoffMs = options.backoffMs ?? 50;
  const sleep = options.sleep ?? realSleep;
  const writeChunk = async (chunk: WriteRequest[]) => {
    let pending = chunk;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(backoffMs * 2 ** (attempt - 1));
      const { UnprocessedItems } = await options.writeBatch({ RequestItems: { [tableName]: pending } });
      pending = UnprocessedItems?.[tableName] ?? [];
      if (pending.length === 0) return;
    }
    throw new UnprocessedWritesError(tableName, pending.length);
  };
  const chunks: WriteRequest[][] = [];
  for (let start = 0; start < requests.length; start += BATCH_WRITE_LIMIT)
    chunks.push(requests.slice(start, start + BATCH_WRITE_LIMIT));
  await Promise.all(chunks.map(writeChunk));
}
