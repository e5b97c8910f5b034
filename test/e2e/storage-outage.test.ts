import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../infra/local/dynamodb-local.js';
import { DataFolderInUseError } from '../../infra/local/folder-lock.js';
import { startLocalHost } from '../../infra/local/host.js';
import { SESSION_COOKIE } from '../../shared/dashboard/cookies.js';
import { eventually } from '../support/eventually.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { connectMcp } from './mcp/support.js';

const quietDelivery = { tokenRefreshIntervalMs: false as const, reconcileIntervalMs: 3_600_000 };

/** Log lines whose message starts with `prefix`. */
const linesOf = (host: TestHost, prefix: string) =>
  host.logs.filter((entry) => entry.message.startsWith(prefix));

/**
 * Storage that goes away and comes back (issue 23, item 6): the caller is told to retry (503 with
 * Retry-After, in the envelope), never handed a 500; the host heals by itself; its pollers back off
 * and say so once, not twenty stacks a second.
 */
describe('a storage outage on the local host', () => {
  const folders: string[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  const folder = () => {
    const path = mkdtempSync(join(tmpdir(), 'smcp-outage-'));
    folders.push(path);
    return path;
  };
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    for (const path of folders) rmSync(path, { recursive: true, force: true });
  });

  it('answers 503 service_unavailable with Retry-After over REST, MCP and the dashboard while storage is unreachable, and serves again once it returns', async () => {
    // Prepare: a DynamoDB Local of the test's own, which it can stop and start again on its data.
    const dbPath = folder();
    let dynamodb: DynamoDbLocal = await startDynamoDbLocal({ dbPath });
    const { port } = dynamodb;
    cleanups.push(() => dynamodb.stop());
    const host = await startTestHost({ dynamodbEndpoint: dynamodb.endpoint, delivery: quietDelivery });
    cleanups.push(() => host.stop());
    const tenant = await host.admin.bootstrap({ name: 'Outage' });
    const mcp = await connectMcp(host, tenant.apiKey);
    cleanups.push(() => mcp.close());
    const workspaces = () => host.call('/v1/workspaces', { apiKey: tenant.apiKey });
    expect((await workspaces()).status).toBe(200);

    // Act: storage goes away.
    await dynamodb.stop();

    // Assess: each surface says "retry", in its own form.
    const rest = await workspaces();
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('5');
    expect(rest.headers.get('x-request-id')).toBeTruthy();
    const envelope = (await rest.json()) as Record<string, unknown>;
    expect(envelope.error).toBe('service_unavailable');
    expect(String(envelope.message)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|at .*\.ts/);
    const create = await host.call(`/v1/workspaces/${tenant.workspaceId}/posts`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ accountId: 'acc_01HZZZZZZZZZZZZZZZZZZZZZZZ', postType: 'text', content: 'x' }),
    });
    expect(create.status).toBe(503);
    // MCP checks the key per HTTP request, before JSON-RPC: the answer is the same 503.
    await expect(mcp.call('listWorkspaces')).rejects.toThrow(/service_unavailable/);
    const rawMcp = await host.call('/mcp', {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'listWorkspaces', arguments: {} },
      }),
    });
    expect(rawMcp.status).toBe(503);
    expect(rawMcp.headers.get('retry-after')).toBe('5');
    // A session cookie of the right shape: the dashboard must read storage to know whose it is.
    const page = await host.call('/dashboard/workspaces', {
      headers: { Cookie: `${SESSION_COOKIE}=${'a'.repeat(43)}` },
      redirect: 'manual',
    });
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('5');
    expect(await page.text()).toContain('Briefly unavailable');
    // The stream poller kept failing meanwhile: one line said so, not one per poll.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(linesOf(host, 'stream poller: polling failed')).toHaveLength(1);
    expect(host.logs.filter((entry) => entry.level === 'error').map((entry) => entry.message)).toEqual([]);

    // Act: storage comes back on the same address and data.
    dynamodb = await startDynamoDbLocal({ dbPath, port });

    // Assess: the same host serves again, unrestarted, and the poller says it recovered, once.
    await eventually(async () => ((await workspaces()).status === 200 ? true : undefined), {
      timeoutMs: 15_000,
      what: 'the host to serve again',
    });
    await eventually(
      async () => (linesOf(host, 'stream poller: polling recovered').length === 1 ? true : undefined),
      {
        timeoutMs: 10_000,
        what: 'the poller to recover',
      },
    );
    expect(linesOf(host, 'stream poller: polling failed')).toHaveLength(1);
  }, 90_000);

  it('starts DynamoDB Local again when its Java dies, and no request meanwhile answers 500', async () => {
    // Prepare: a host with a DynamoDB Local of its own, as `npm start` runs it.
    const host = await startTestHost({
      dynamodbEndpoint: undefined,
      dataDir: folder(),
      delivery: quietDelivery,
    });
    cleanups.push(() => host.stop());
    const tenant = await host.admin.bootstrap({ name: 'Healing' });
    const firstJava = host.dynamodb?.pid();
    expect(firstJava).toBeGreaterThan(0);

    // Act: Java is killed, as an OOM killer would.
    process.kill(firstJava as number, 'SIGKILL');

    // Assess: requests meanwhile are 200 or 503, never 500; then 200 from a new Java.
    const statuses: number[] = [];
    await eventually(
      async () => {
        const status = (await host.call('/v1/workspaces', { apiKey: tenant.apiKey })).status;
        statuses.push(status);
        return status === 200 && host.dynamodb?.pid() !== firstJava ? true : undefined;
      },
      { timeoutMs: 40_000, intervalMs: 100, what: 'DynamoDB Local to be restarted' },
    );
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    expect(linesOf(host, 'DynamoDB Local exited')).toHaveLength(1);
    expect(linesOf(host, 'DynamoDB Local is serving again')).toHaveLength(1);
  }, 90_000);

  it('refuses a second host on a data folder in use, with a message that says what to do', async () => {
    // Prepare
    const dataDir = folder();
    const first = await startTestHost({ dynamodbEndpoint: undefined, dataDir, delivery: false });
    cleanups.push(() => first.stop());

    // Act
    const second = startLocalHost({ dataDir, port: 0, delivery: false });

    // Assess: refused before a second Java runs on the same database.
    await expect(second).rejects.toBeInstanceOf(DataFolderInUseError);
    await expect(second).rejects.toThrow(`(pid ${process.pid}) is already using ${dataDir}`);
    await expect(startDynamoDbLocal({ dbPath: join(dataDir, 'dynamodb') })).rejects.toThrow(
      /DynamoDB Local \(pid \d+, \d+\) is already using/,
    );
  }, 60_000);
});
