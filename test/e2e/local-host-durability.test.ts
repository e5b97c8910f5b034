import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../infra/local/folder-lock.js';
import { readHostFile } from '../../infra/local/host-file.js';
import { eventually } from '../support/eventually.js';
import { bannerOf, interrupt, type Started, startService } from '../support/service-process.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

const POSTS = 50;
const DELIVERIES = 20;

/**
 * The local host loses nothing (issue 23): killed with SIGKILL while 50 posts are due and 20
 * webhook deliveries wait for their retry (their messages in the host's queues), `npm start` again
 * publishes every post once and makes every delivery once. DynamoDB Local's Java dies with the
 * host, so the restart finds no orphan holding the data folder.
 */
describe('a local host killed with SIGKILL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-durable-'));
  const running: Started[] = [];
  let receiver: WebhookReceiver | undefined;
  afterAll(async () => {
    for (const started of running)
      if (started.child.exitCode === null) await interrupt(started).catch(() => undefined);
    await receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes every due post and makes every waiting webhook delivery once after the restart', async () => {
    // Prepare: the host as a user starts it, a receiver that refuses the first attempt of each delivery.
    receiver = await startWebhookReceiver();
    const hooks = receiver;
    const first = await startService(dataDir);
    running.push(first);
    const { baseUrl, workspaceId, apiKey, twitter } = bannerOf(first);
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const api = (base: string, path: string, init: RequestInit = {}) =>
      fetch(`${base}/v1/workspaces/${workspaceId}${path}`, { headers, ...init });
    const webhook = (await (
      await api(baseUrl, '/webhooks', {
        method: 'POST',
        body: JSON.stringify({ url: hooks.url('/hook'), events: ['post.failed'] }),
      })
    ).json()) as { id: string };
    hooks.answer('/hook', ...Array.from({ length: DELIVERIES }, () => ({ status: 500 })));
    for (let index = 0; index < DELIVERIES; index++) {
      const tested = await api(baseUrl, `/webhooks/${webhook.id}/test`, { method: 'POST' });
      expect(tested.status).toBe(202);
    }
    // Each first attempt refused: every delivery now waits about 30 s for its retry.
    await eventually(async () => (hooks.at('/hook').length === DELIVERIES ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the first attempt of every delivery',
    });
    // Posts due in a few seconds, each taking the network two seconds: at the kill, some are due and
    // waiting, some in the network's hands, none finished.
    // Far enough ahead for 50 creates on a busy machine; the test then waits for the time.
    const dueAt = Date.now() + 15_000;
    const posts: string[] = [];
    for (let index = 0; index < POSTS; index++) {
      const created = await api(baseUrl, '/posts', {
        method: 'POST',
        body: JSON.stringify({
          platform: 'twitter',
          accountId: twitter,
          postType: 'text',
          status: 'scheduled',
          scheduledAt: new Date(dueAt).toISOString(),
          content: `Due at the crash ${index} [sandbox:slow:2000]`,
        }),
      });
      expect(created.status).toBe(201);
      posts.push(((await created.json()) as { id: string }).id);
    }
    expect(Date.now()).toBeLessThan(dueAt);
    await new Promise((resolve) => setTimeout(resolve, dueAt - Date.now() + 500));
    const host = readHostFile(dataDir);
    if (!host) throw new Error('The host wrote no host file.');
    const javaPids = readFileSync(join(dataDir, 'dynamodb', 'dynamodb-local.pid'), 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number)
      .filter((pid) => pid !== host.pid);
    expect(javaPids).toHaveLength(1);

    // Act: SIGKILL to the host's own process alone (not its group): nothing of it can clean up.
    const beforeRestart = hooks.at('/hook').length;
    process.kill(host.pid, 'SIGKILL');
    await new Promise((resolve) => first.child.once('close', resolve));
    // Assess: Java went with it.
    await eventually(async () => (javaPids.every((pid) => !isAlive(pid)) ? true : undefined), {
      timeoutMs: 10_000,
      what: 'DynamoDB Local to end with its host',
    });
    const second = await startService(dataDir);
    running.push(second);
    const restartedAt = Date.now();
    const base = bannerOf(second).baseUrl;

    // Assess: every post published within 30 s of the restart, in one attempt each.
    const published = await eventually(
      async () => {
        const states = await Promise.all(
          posts.map(
            async (id) => (await (await api(base, `/posts/${id}`)).json()) as Record<string, unknown>,
          ),
        );
        return states.every((post) => post.status === 'published') ? states : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500, what: 'every post to be published after the restart' },
    );
    // By the posts' own publishedAt, so a test machine slow to poll them does not count against the
    // host. A post the killed worker held waits out its 20 s lease before it is looked up (the
    // network may still be finishing the dead worker's call): about 23 s after the restart on an
    // idle machine. The 30 s bound for one post is test/e2e/worker-crash.test.ts's; here 50 posts
    // share two cores with the rest of the suite, so the bound is 45 s.
    const latest = Math.max(...published.map((post) => Date.parse(String(post.publishedAt))));
    expect(latest - restartedAt).toBeLessThan(45_000);
    // A post the killed worker held is taken again once its lease ends and looked up on the
    // network, never sent blindly: a second attempt at most, and one network post each.
    expect(published.filter((post) => Number(post.attempts) > 2)).toEqual([]);
    const platformIds = published.map((post) => post.platformPostId);
    expect(new Set(platformIds).size).toBe(POSTS);
    // One post.published event each, once the feed has settled: no post went out twice.
    const readPublishedEvents = async () => {
      const ids: string[] = [];
      let after: string | null = null;
      for (let page = 0; page < 20; page++) {
        const query: string = `/events?types=post.published&limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`;
        const body = (await (await api(base, query)).json()) as {
          data: { data: { postId: string } }[];
          nextCursor: string | null;
        };
        ids.push(...body.data.map((event) => event.data.postId));
        if (body.data.length === 0 || !body.nextCursor) break;
        after = body.nextCursor;
      }
      return ids;
    };
    const publishedIds = await eventually(
      async () => {
        const ids = await readPublishedEvents();
        return ids.length >= POSTS ? ids : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 500, what: 'the post.published events in the feed' },
    );
    expect(publishedIds.sort()).toEqual([...posts].sort());

    // Assess: every waiting delivery made once more, now answered 200, each exactly once.
    await eventually(
      async () => (hooks.at('/hook').length - beforeRestart >= DELIVERIES ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 500, what: 'every waiting delivery to be retried' },
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const retried = hooks
      .at('/hook')
      .slice(beforeRestart)
      .map((request) => (JSON.parse(request.rawBody.toString('utf8')) as { id: string }).id);
    const firstAttempts = hooks
      .at('/hook')
      .slice(0, beforeRestart)
      .map((request) => (JSON.parse(request.rawBody.toString('utf8')) as { id: string }).id);
    expect(retried.sort()).toEqual([...firstAttempts].sort());
    expect(new Set(retried).size).toBe(DELIVERIES);
    await interrupt(second);
  }, 240_000);
});
