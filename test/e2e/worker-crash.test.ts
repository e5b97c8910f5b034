import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { interrupt, type Started, startService } from '../support/service-process.js';

interface PostBody {
  status: string;
  attempts: number;
  platformPostId: string | null;
}

/** What the banner of `npm start` tells a user. */
function banner(started: Started) {
  const output = started.output();
  const line = (label: string) => new RegExp(`^${label}: (\\S+)$`, 'm').exec(output)?.[1] as string;
  return {
    baseUrl: line('Base URL'),
    workspaceId: line('Workspace'),
    twitter: /^ {2}twitter\s+(acc_\S+)$/m.exec(output)?.[1],
  };
}

/**
 * The worst moment to die: the network has the post, the worker has not written the outcome. The
 * whole service (worker, queue, Java) is killed with SIGKILL while a slow sandbox call is under
 * way; after a restart the reconciler must find the post on the network and mark it published,
 * without a second network call.
 */
describe('a worker killed mid-delivery', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-crash-'));
  const env = { DELIVERY_LEASE_SECONDS: '2', RECONCILE_INTERVAL_SECONDS: '1' };
  const running: Started[] = [];
  afterAll(async () => {
    for (const started of running)
      if (started.child.exitCode === null) await interrupt(started).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends published exactly once after a restart', async () => {
    // Prepare
    const first = await startService(dataDir, env);
    running.push(first);
    const { baseUrl, workspaceId, twitter } = banner(first);
    const apiKey = /^API key: (smcp_[0-9a-f]{64})$/m.exec(first.output())?.[1] as string;
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${baseUrl}/v1/workspaces/${workspaceId}/posts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        platform: 'twitter',
        accountId: twitter,
        status: 'publish',
        postType: 'text',
        content: 'Mid-flight [sandbox:slow:20000]',
      }),
    });
    const { id } = (await created.json()) as { id: string };
    const read = async (base: string) =>
      (await (
        await fetch(`${base}/v1/workspaces/${workspaceId}/posts/${id}`, { headers })
      ).json()) as PostBody;
    await eventually(async () => ((await read(baseUrl)).status === 'publishing' ? true : undefined), {
      what: 'the worker to claim the post',
    });

    // The sandbox records the post as published (the network has it), then simulates a 20 s answer:
    // two seconds into the call the network has it and the worker has not written the outcome.
    await new Promise((resolve) => setTimeout(resolve, 2000));

    // Act: kill everything at once, as a crash or an OOM kill would.
    await interrupt(first, 'SIGKILL');
    const second = await startService(dataDir, env);
    running.push(second);

    // Assess
    const post = await eventually(
      async () => {
        const current = await read(banner(second).baseUrl);
        return current.status === 'published' ? current : undefined;
      },
      { timeoutMs: 30_000, what: 'the reconciler to settle the post' },
    );
    expect(post.attempts).toBe(1);
    expect(post.platformPostId).toMatch(/^\d{19}$/);
    await interrupt(second);
  }, 180_000);
});
