import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoCallCount, makeCallCounter } from '../../shared/adapters/dynamodb/call-counter.js';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { makeDynamoPostStore } from '../../shared/adapters/dynamodb/post-store.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * The DynamoDB calls (counts, not times) one published post costs after its create, against
 * DynamoDB Local: docs/data-model.md "The delivery pipeline's calls" states them.
 */
describe('round trips of one published post on the local host', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let phase: 'api' | 'pipeline' = 'api';
  const counter = makeCallCounter({
    classify: ({ operation, input }) => {
      // The reconciler's look for overdue posts runs on its timer, not per post.
      if (operation === 'Query' && input.IndexName === 'gsi2') return 'reconciler';
      const item = input.Item as { entity?: string; status?: string; attempts?: number } | undefined;
      const isCreate = item?.entity === 'post' && item.status === 'queued' && item.attempts === 0;
      const label = isCreate ? 'api' : phase;
      // Only once the post is written can the stream, and so the pipeline, see it.
      if (isCreate) phase = 'pipeline';
      return label;
    },
  });
  const client = () =>
    makeDynamoClient({ region: host.config.region, endpoint: host.config.dynamodbEndpoint });

  beforeAll(async () => {
    host = await startTestHost({
      dynamodbCalls: counter,
      // A warm key cache, as in a running service: the requests cost no authentication reads.
      authCacheTtlSeconds: 30,
      delivery: { sandboxLatencyMs: { min: 1, max: 5 } },
    });
    tenant = await host.admin.bootstrap({ name: 'Round trips' });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('the worker reads the post with its account once, and writes the claim and the outcome', async () => {
    // Prepare: an uncounted reader, and one post through first (the key's cache, the quota's day).
    const own = client();
    const reader = makeDynamoPostStore(makeDocumentClient(own), host.config.tables);
    const posts = postsClient(host, tenant);
    const publish = async (content: string) => {
      const response = await posts.create(tweet(tenant, { content }));
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      await eventually(
        async () =>
          (await reader.get(tenant.tenantId, tenant.workspaceId, id))?.status === 'published' || undefined,
        {
          what: `post ${id} to be published`,
        },
      );
    };
    /** Claim, settle and the two events' feed entries written, and nothing in flight (the fan-out's read). */
    const eventsDone = () => {
      const now = counter.snapshot();
      const written = (command: string) =>
        now.byCommand
          .filter((row) => row.label === 'pipeline' && row.command === command)
          .reduce((sum, row) => sum + row.itemWrites, 0);
      return (written('PutItem') >= 2 && written('BatchWriteItem') >= 2 && now.inFlight === 0) || undefined;
    };
    await publish('first');
    await eventually(async () => eventsDone(), { what: 'the first post’s two events' });
    phase = 'api';
    counter.reset();

    // Act
    await publish('counted');
    // Its two events (post.queued, post.published): the feed's entries and the webhooks' read.
    await eventually(async () => eventsDone(), { what: 'the counted post’s two events' });

    // Assess
    const pipeline = counter.snapshot().byCommand.filter((row) => row.label === 'pipeline');
    const calls = (command: string, where: (row: DynamoCallCount) => boolean = () => true) =>
      pipeline
        .filter((row) => row.command === command && where(row))
        .reduce((sum, row) => sum + row.calls, 0);
    const main = (row: DynamoCallCount) => row.table === host.config.tables.main;
    // The post, its account and its media: one BatchGetItem, never a GetItem of its own.
    expect(calls('GetItem')).toBe(0);
    expect(calls('BatchGetItem', main)).toBe(1);
    // Claim and settle.
    expect(calls('PutItem', main)).toBe(2);
    // The quota's reservation.
    expect(calls('UpdateItem', (row) => row.table === host.config.tables.rateLimits)).toBe(1);
    // The fan-out reads the workspace's webhooks and writes the events to the feed once per batch
    // of events: once when the two events arrive together, twice when each comes alone.
    const fanOutReads = calls('Query', main);
    expect(fanOutReads).toBeGreaterThanOrEqual(1);
    expect(fanOutReads).toBeLessThanOrEqual(2);
    expect(calls('BatchWriteItem', main)).toBe(fanOutReads);
    const feedItems = pipeline
      .filter((row) => row.command === 'BatchWriteItem')
      .reduce((sum, row) => sum + row.itemWrites, 0);
    expect(feedItems).toBe(2);
    expect(pipeline.reduce((sum, row) => sum + row.calls, 0)).toBe(4 + 2 * fanOutReads);
    own.destroy();
  });
});
