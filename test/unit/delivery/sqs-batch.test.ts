import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { makeSqsBatchHandler } from '../../../shared/services/sqs-batch.js';

const batch = (...bodies: object[]): SQSEvent =>
  ({ Records: bodies.map((body, i) => ({ messageId: `m${i}`, body: JSON.stringify(body) })) }) as SQSEvent;

describe('makeSqsBatchHandler', () => {
  it('reports only the records whose handling threw, and logs each', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handler = makeSqsBatchHandler<{ n: number }>(
      'test',
      async ({ n }) => {
        if (n % 2) throw new Error(`odd ${n}`);
      },
      { concurrent: true },
    );
    expect(await handler(batch({ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }))).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm3' }],
    });
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });

  it('handles one record after another unless concurrent', async () => {
    let running = 0;
    let most = 0;
    const handle = async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
    };
    await makeSqsBatchHandler('test', handle, { concurrent: false })(batch({}, {}, {}));
    expect(most).toBe(1);
    most = 0;
    await makeSqsBatchHandler('test', handle, { concurrent: true })(batch({}, {}, {}));
    expect(most).toBe(3);
  });
});
