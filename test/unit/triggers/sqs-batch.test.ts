import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../shared/ports/logger.js';
import { makeSqsBatchHandler } from '../../../shared/triggers/sqs-batch.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';

const batch = (...bodies: object[]): SQSEvent =>
  ({ Records: bodies.map((body, i) => ({ messageId: `m${i}`, body: JSON.stringify(body) })) }) as SQSEvent;

describe('makeSqsBatchHandler', () => {
  it('reports only the records whose handling threw, and logs each with its message id', async () => {
    // Prepare
    const logger = makeMemoryLogger();
    const handler = makeSqsBatchHandler<{ n: number }>(
      'test',
      async ({ n }) => {
        if (n % 2) throw new Error(`odd ${n}`);
      },
      { concurrent: true, logger },
    );

    // Act
    const response = await handler(batch({ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }));

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm3' }] });
    const errors = logger.entries.filter((entry) => entry.level === 'error');
    expect(errors.map((entry) => entry.fields.messageId)).toEqual(['m1', 'm3']);
    expect(errors[0]?.message).toBe('test failed; the message will be retried');
    expect(errors[0]?.fields.error).toMatchObject({ message: 'odd 1' });
  });

  it("hands each message a logger carrying the Lambda's ids, cold start only on the first invocation", async () => {
    // Prepare
    const logger = makeMemoryLogger();
    const handler = makeSqsBatchHandler<{ n: number }>(
      'test',
      async (_message, log) => {
        log.info('handled');
      },
      { concurrent: false, logger },
    );
    const context = { awsRequestId: 'req-1', functionName: 'delivery-worker' };

    // Act
    await handler(batch({ n: 0 }), context);
    await handler(batch({ n: 1 }), { ...context, awsRequestId: 'req-2' });

    // Assess
    expect(logger.entries.map((entry) => entry.fields)).toEqual([
      { function: 'delivery-worker', lambdaRequestId: 'req-1', coldStart: true, messageId: 'm0' },
      { function: 'delivery-worker', lambdaRequestId: 'req-2', coldStart: false, messageId: 'm0' },
    ]);
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
    const options = { logger: silentLogger };
    await makeSqsBatchHandler('test', handle, { ...options, concurrent: false })(batch({}, {}, {}));
    expect(most).toBe(1);
    most = 0;
    await makeSqsBatchHandler('test', handle, { ...options, concurrent: true })(batch({}, {}, {}));
    expect(most).toBe(3);
  });
});
