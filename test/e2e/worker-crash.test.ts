import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHostFile } from '../../infra/local/host-file.js';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { makeDynamoSandboxLedger } from '../../shared/adapters/dynamodb/sandbox-ledger.js';
import { eventually } from '../support/eventually.js';
import { bannerOf, interrupt, type Started, startService } from '../support/service-process.js';

interface PostBody {
  status: string;
  attempts: number;
  scheduledAt: string | null;
  publishedAt: string | null;
  platformPostId: string | null;
}

/**
 * The worst moment to die: the network has the post, the worker has not written the outcome, and
 * the queue (in memory) holds a scheduled post's delayed message. The whole service (worker, queue,
 * Java) is killed with SIGKILL; after a restart with the default settings (a 20 s lease renewed
 * while a worker lives, the reconciler at start and every 5 s), both posts must go out within about
 * 30 s of the restart (finding 8: they took 126 to 174 s), each exactly once.
 */
describe('a worker killed mid-delivery', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-crash-'));
  const running: Started[] = [];
  afterAll(async () => {
    for (const started of running)
      if (started.child.exitCode === null) await interrupt(started).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes the held post and a scheduled post whose message was lost within 30 s of a restart, once', async () => {
    // Prepare
    const first = await startService(dataDir);
    running.push(first);
    const { baseUrl, workspaceId, twitter } = bannerOf(first);
    const apiKey = /^API key: (smcp_[0-9a-f]{64})$/m.exec(first.output())?.[1] as string;
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const create = async (body: Record<string, unknown>) => {
      const created = await fetch(`${baseUrl}/v1/workspaces/${workspaceId}/posts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ platform: 'twitter', accountId: twitter, postType: 'text', ...body }),
      });
      expect(created.status).toBe(201);
      return ((await created.json()) as { id: string }).id;
    };
    const read = async (base: string, id: string) =>
      (await (
        await fetch(`${base}/v1/workspaces/${workspaceId}/posts/${id}`, { headers })
      ).json()) as PostBody;

    const held = await create({ status: 'publish', content: 'Mid-flight [sandbox:slow:60000]' });
    await eventually(async () => ((await read(baseUrl, held)).status === 'publishing' ? true : undefined), {
      what: 'the worker to claim the post',
    });
    // The sandbox records the post as published (the network has it), then takes a minute to
    // answer: two seconds into the call the network has it and the worker has not written the outcome.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // Due while the service is down: its delayed message lives only in the killed process's queue.
    const scheduled = await create({
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 4000).toISOString(),
      content: 'Due during the outage',
    });
    await eventually(
      async () => ((await read(baseUrl, scheduled)).status === 'scheduled' ? true : undefined),
      { what: 'the scheduled post' },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    // Act: kill everything at once, as a crash or an OOM kill would, and start again.
    const killedAt = Date.now();
    await interrupt(first, 'SIGKILL');
    const second = await startService(dataDir);
    running.push(second);
    const restartedAt = Date.now();
    const base = bannerOf(second).baseUrl;

    // Assess: both out within 30 s of the restart.
    const published = (id: string) =>
      eventually(
        async () => {
          const post = await read(base, id);
          return post.status === 'published' ? post : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: `post ${id} to be published after the restart` },
      );
    const [heldPost, scheduledPost] = await Promise.all([published(held), published(scheduled)]);
    for (const post of [heldPost, scheduledPost]) {
      expect(Date.parse(post.publishedAt as string) - restartedAt).toBeLessThan(30_000);
    }
    // The held post: found on the network, never sent again (one attempt, the network's first record).
    expect(heldPost.attempts).toBe(1);
    expect(heldPost.platformPostId).toMatch(/^\d{19}$/);
    const host = readHostFile(dataDir);
    if (!host) throw new Error('The restarted host wrote no host file.');
    const ledger = makeDynamoSandboxLedger(
      makeDocumentClient(makeDynamoClient({ region: host.region, endpoint: host.dynamodbEndpoint })),
      host.tables.main,
    );
    const onNetwork = await ledger.find(held);
    expect(onNetwork?.platformPostId).toBe(heldPost.platformPostId);
    expect(Date.parse(onNetwork?.publishedAt as string)).toBeLessThan(killedAt);
    // The scheduled post: once, and never before its time.
    expect(scheduledPost.attempts).toBe(1);
    expect(Date.parse(scheduledPost.publishedAt as string)).toBeGreaterThanOrEqual(
      Date.parse(scheduledPost.scheduledAt as string),
    );
    await interrupt(second);
  }, 180_000);
});
