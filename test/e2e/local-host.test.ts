import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHostFile } from '../../infra/local/host-file.js';
import { PLATFORM_IDS } from '../../shared/networks/definitions.js';
import { interrupt, portIsClosed, startService } from '../support/service-process.js';

describe('npm start, as a user runs it', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-e2e-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints a base URL and a key that work, stops everything on Ctrl-C, and keeps data across restarts', async () => {
    const first = await startService(dataDir);
    const baseUrl = /^Base URL: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(first.output())?.[1];
    const apiKey = /^API key: (smcp_[0-9a-f]{64})$/m.exec(first.output())?.[1];
    expect(baseUrl).toBeDefined();
    expect(apiKey).toBeDefined();
    const hostFile = readHostFile(dataDir);
    expect(hostFile?.baseUrl).toBe(baseUrl);
    const javaPort = Number(new URL(hostFile?.dynamodbEndpoint ?? '').port);

    const workspaces = await fetch(`${baseUrl}/v1/workspaces`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    expect(workspaces.status).toBe(200);
    const { data } = (await workspaces.json()) as { data: { id: string }[] };
    expect(data).toHaveLength(1);
    const accounts = await fetch(`${baseUrl}/v1/workspaces/${data[0]?.id}/accounts`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    // Bootstrap's sandbox accounts: one per network.
    expect(((await accounts.json()) as { data: unknown[] }).data).toHaveLength(PLATFORM_IDS.length);
    const ownerLink = /^ {2}Set the owner's password \(once, within 24 hours\): (\S+)$/m.exec(
      first.output(),
    )?.[1];
    expect(ownerLink).toMatch(new RegExp(`^${baseUrl}/dashboard/welcome/\\S+$`));
    const welcome = await fetch(ownerLink ?? '');
    expect(welcome.status).toBe(200);
    expect(await welcome.text()).toContain('owner@example.com');

    const stopped = await interrupt(first);
    expect(stopped.code === 0 || stopped.signal === 'SIGINT').toBe(true);
    expect(first.output()).toContain('Stopped.');
    expect(first.output()).not.toMatch(/failed|Error/);
    expect(await portIsClosed(javaPort)).toBe(true);
    expect(readHostFile(dataDir)).toBeUndefined();

    const second = await startService(dataDir);
    expect(second.output()).not.toMatch(/^API key: smcp_/m);
    expect(second.output()).not.toContain('/dashboard/welcome/');
    const secondUrl = /^Base URL: (\S+)$/m.exec(second.output())?.[1];
    const again = await fetch(`${secondUrl}/v1/workspaces`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: { id: string }[] }).data.map((w) => w.id)).toEqual([data[0]?.id]);
    const javaPortAgain = Number(new URL(readHostFile(dataDir)?.dynamodbEndpoint ?? '').port);
    await interrupt(second, 'SIGTERM');
    expect(second.output()).toContain('SIGTERM: stopping');
    expect(second.output()).toContain('Stopped.');
    expect(await portIsClosed(javaPortAgain)).toBe(true);
  }, 180_000);
});
