import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { makeDynamoPostStore } from '../../shared/adapters/dynamodb/post-store.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

interface Page {
  data: { id: string; status: string; scheduledAt: string | null; platform: string; accountId: string }[];
  nextCursor: string | null;
}

const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

describe('GET /v1/workspaces/{workspace_id}/posts', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;
  const scheduledIds: string[] = [];

  const page = async (query: string) => {
    const response = await posts.list(query);
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  };

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Lists' });
    posts = postsClient(host, tenant);
    // Created out of time order, so that creation order and schedule order differ.
    for (const hours of [5, 1, 3, 2, 4]) {
      const response = await posts.create(
        tweet(tenant, { status: 'scheduled', scheduledAt: hoursAhead(hours) }),
      );
      scheduledIds.push(((await response.json()) as { id: string }).id);
    }
    await posts.create(tweet(tenant, { content: 'now' }));
    await posts.create({
      platform: 'linkedin',
      accountId: tenant.accounts.linkedin,
      status: 'draft',
      postType: 'text',
      content: 'draft',
    });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('status=scheduled lists scheduled posts by scheduledAt ascending', async () => {
    const { data } = await page('?status=scheduled');
    expect(data.every((post) => post.status === 'scheduled')).toBe(true);
    const times = data.map((post) => post.scheduledAt as string);
    expect(times).toEqual([...times].sort());
    expect(data).toHaveLength(5);
  });

  it('scheduledFrom and scheduledTo narrow the scheduled range, inclusively', async () => {
    const all = (await page('?status=scheduled')).data;
    const from = all[1]?.scheduledAt as string;
    const to = all[3]?.scheduledAt as string;
    const { data } = await page(`?status=scheduled&scheduledFrom=${from}&scheduledTo=${to}`);
    expect(data.map((post) => post.id)).toEqual(all.slice(1, 4).map((post) => post.id));
  });

  it('without status lists every post, newest first', async () => {
    const { data } = await page('?limit=100');
    expect(data).toHaveLength(7);
    const ids = data.map((post) => post.id);
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it('filters by status, platform and account', async () => {
    expect((await page('?status=queued')).data.map((p) => p.status)).toEqual(['queued']);
    expect((await page('?platform=linkedin')).data.map((p) => p.platform)).toEqual(['linkedin']);
    const byAccount = await page(`?accountId=${tenant.accounts.twitter}&limit=100`);
    expect(byAccount.data).toHaveLength(6);
  });

  it('pages with limit and nextCursor through the scheduled index without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const next: Page = await page(`?status=scheduled&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(next.data.length).toBeLessThanOrEqual(2);
      seen.push(...next.data.map((post) => post.id));
      cursor = next.nextCursor;
    } while (cursor);
    expect(seen).toEqual((await page('?status=scheduled')).data.map((post) => post.id));
  });

  it('answers 400 to an unknown status and to a cursor of another list', async () => {
    await expectEnvelope(await posts.list('?status=sent'), 400, 'INVALID_REQUEST');
    const forged = Buffer.from(JSON.stringify({ sk: 'ACCOUNT#x' })).toString('base64url');
    await expectEnvelope(await posts.list(`?cursor=${forged}`), 400, 'INVALID_REQUEST');
  });

  it('status=scheduled is one Query on the index and never a Scan', async () => {
    const commands: { name: string; input: Record<string, unknown> }[] = [];
    const client = makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint });
    client.middlewareStack.add(
      (next, context) => async (args) => {
        commands.push({ name: String(context.commandName), input: args.input as Record<string, unknown> });
        return next(args);
      },
      { step: 'initialize', name: 'recordCommands' },
    );
    const store = makeDynamoPostStore(makeDocumentClient(client), host.config.tables);

    const result = await store.list(tenant.tenantId, tenant.workspaceId, {
      status: 'scheduled',
      limit: 25,
      scheduledFrom: hoursAhead(0),
    });

    expect(result.items).toHaveLength(5);
    expect(commands.map((c) => c.name)).toEqual(['QueryCommand']);
    expect(commands[0]?.input.IndexName).toBe('gsi1');
    expect(commands[0]?.input.KeyConditionExpression).toContain('gsi1pk');
    expect(commands[0]?.input).not.toHaveProperty('FilterExpression');
    client.destroy();
  });
});
