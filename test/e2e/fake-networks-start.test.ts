import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { interrupt, type Started, startService } from '../support/service-process.js';
import { consentAt } from './support/consent.js';

/**
 * What docs/networks.md promises a developer: `FAKE_NETWORKS=1 npm start`, then connect an X
 * account through a real OAuth redirect (the fake's consent page) and publish to it, with no
 * network account at all.
 */
let dataDir: string;
let started: Started;
let baseUrl: string;
let apiKey: string;
let workspaceId: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'smcp-fake-networks-'));
  started = await startService(dataDir, { FAKE_NETWORKS: '1' });
  baseUrl = /^Base URL: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(started.output())?.[1] ?? '';
  apiKey = /^API key: (smcp_[0-9a-f]{64})$/m.exec(started.output())?.[1] ?? '';
  workspaceId = /^Workspace: (wks_\S+)$/m.exec(started.output())?.[1] ?? '';
}, 90_000);
afterAll(async () => {
  if (started) await interrupt(started);
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...init.headers },
  });

it('connects an X account through the fake consent page and publishes a post to it', async () => {
  expect(started.output()).toMatch(
    /Fake networks: X, LinkedIn, Instagram, TikTok, YouTube, Bluesky, Facebook, Threads run inside this host/,
  );

  // Connect: the authorize URL points at the fake; its consent sends the browser to our callback.
  const connect = await call(`/v1/workspaces/${workspaceId}/accounts/connect`, {
    method: 'POST',
    body: JSON.stringify({ platform: 'twitter' }),
  });
  expect(connect.status).toBe(200);
  const { authorizeUrl } = (await connect.json()) as { authorizeUrl: string };
  const callback = await consentAt(authorizeUrl);
  expect(callback.startsWith(`${baseUrl}/v1/oauth/twitter/callback?`)).toBe(true);
  const page = await fetch(callback, { redirect: 'manual' });
  expect(page.status).toBe(200);

  // The account is there, connected, not a sandbox one.
  const accounts = (await (await call(`/v1/workspaces/${workspaceId}/accounts?platform=twitter`)).json()) as {
    data: { id: string; sandbox: boolean; status: string; handle: string }[];
  };
  const account = accounts.data.find((candidate) => !candidate.sandbox);
  expect(account).toMatchObject({ status: 'connected', handle: '@fake_x_user' });

  // Publish to it: the worker calls the fake X API with the account's token.
  const created = await call(`/v1/workspaces/${workspaceId}/posts`, {
    method: 'POST',
    body: JSON.stringify({
      platform: 'twitter',
      accountId: account?.id,
      status: 'publish',
      postType: 'text',
      content: 'Hello from FAKE_NETWORKS=1',
    }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const published = await eventually(
    async () => {
      const post = (await (await call(`/v1/workspaces/${workspaceId}/posts/${id}`)).json()) as {
        status: string;
        platformPostId: string | null;
      };
      expect(post.status).toBe('published');
      return post;
    },
    { timeoutMs: 30_000, what: 'the post to be published' },
  );
  expect(published.platformPostId).toMatch(/^\d+$/);
}, 120_000);
