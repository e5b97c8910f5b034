import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { type AdminCliFixture, startAdminCliFixture } from '../support/admin-cli-fixture.js';

const NO_WORKSPACE = 'wks_01ARZ3NDEKTSV4RRFFQ69G5FAV';

let fx: AdminCliFixture;

beforeAll(async () => {
  fx = await startAdminCliFixture('admin-cli-redirects');
});

afterAll(() => fx?.close());

describe('admin CLI set-redirect-uris', () => {
  it("replaces the tenant's list, or a workspace's, and --clear removes it", async () => {
    // Prepare
    const { tenantId, workspaceId } = await fx.cliJson<BootstrapResult>(['bootstrap']);

    // Act
    const tenantWide = await fx.cliJson([
      ...['set-redirect-uris', '--tenant', tenantId],
      ...['--uris', 'https://app.example.com/done, http://127.0.0.1:5173/cb,https://app.example.com/done'],
    ]);
    const forWorkspace = await fx.cliJson([
      ...['set-redirect-uris', '--tenant', tenantId, '--workspace', workspaceId],
      ...['--uris', 'https://client.example.org/back'],
    ]);

    // Assess
    expect(tenantWide).toEqual({
      tenantId,
      oauthRedirectUris: ['https://app.example.com/done', 'http://127.0.0.1:5173/cb'],
    });
    expect(forWorkspace).toEqual({
      tenantId,
      workspaceId,
      oauthRedirectUris: ['https://client.example.org/back'],
    });
    expect((await fx.store.getTenant(tenantId))?.oauthRedirectUris).toEqual([
      'https://app.example.com/done',
      'http://127.0.0.1:5173/cb',
    ]);
    expect((await fx.store.getWorkspace(tenantId, workspaceId))?.oauthRedirectUris).toEqual([
      'https://client.example.org/back',
    ]);

    const cleared = await fx.cli(['set-redirect-uris', '--tenant', tenantId, '--clear']);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain(`Tenant ${tenantId} allows no redirect URIs of its own.`);
    expect(await fx.store.getTenant(tenantId)).not.toHaveProperty('oauthRedirectUris');
    expect((await fx.store.getWorkspace(tenantId, workspaceId))?.oauthRedirectUris).toHaveLength(1);
  });

  it('refuses a URI a redirect may not go to, naming it and why, and stores nothing', async () => {
    const { tenantId } = await fx.cliJson<BootstrapResult>(['bootstrap']);

    const result = await fx.cli([
      ...['set-redirect-uris', '--tenant', tenantId, '--json'],
      ...['--uris', 'https://ok.example.com/cb,http://plain.example.com/cb,https://ok.example.com/q?x=1'],
    ]);

    expect(result.code).toBe(1);
    const error = JSON.parse(result.stdout) as { error: string; message: string };
    expect(error.error).toBe('INVALID_REQUEST');
    expect(error.message).toContain('http://plain.example.com/cb (Must be HTTPS');
    expect(error.message).toContain('https://ok.example.com/q?x=1 (Must not have a query');
    expect(error.message).not.toContain('https://ok.example.com/cb (');
    expect(await fx.store.getTenant(tenantId)).not.toHaveProperty('oauthRedirectUris');
  });

  it('an unknown workspace is not found; neither --uris nor --clear, or both, is bad usage', async () => {
    const { tenantId } = await fx.cliJson<BootstrapResult>(['bootstrap']);

    const unknown = await fx.cli([
      ...['set-redirect-uris', '--tenant', tenantId, '--workspace', NO_WORKSPACE],
      ...['--uris', 'https://ok.example.com/cb', '--json'],
    ]);
    const neither = await fx.cli(['set-redirect-uris', '--tenant', tenantId]);
    const both = await fx.cli([
      'set-redirect-uris',
      '--tenant',
      tenantId,
      '--clear',
      '--uris',
      'https://a.example/b',
    ]);

    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ error: 'not_found' });
    expect([neither.code, both.code]).toEqual([2, 2]);
    expect(neither.stderr).toContain('exactly one of --uris or --clear');
  });
});
