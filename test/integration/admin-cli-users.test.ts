import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readHostFile, writeHostFile } from '../../infra/local/host-file.js';
import { makeDocumentClient } from '../../shared/adapters/dynamodb/client.js';
import { makeDynamoUserStore } from '../../shared/adapters/dynamodb/user-store.js';
import { systemClock } from '../../shared/ports/clock.js';
import { silentLogger } from '../../shared/ports/logger.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import type { DashboardAuth } from '../../shared/services/users/dashboard-auth.js';
import { makeDashboardAuth } from '../../shared/services/users/make-dashboard-auth.js';
import { type AdminCliFixture, startAdminCliFixture } from '../support/admin-cli-fixture.js';

interface LinkFacts {
  userId: string;
  email: string;
  role: string;
  setPasswordLink: string;
  expiresAt: string;
}

const LINK = /^http:\/\/127\.0\.0\.1:1\/dashboard\/welcome\/([A-Za-z0-9_-]{43})$/;
const unique = () => Math.random().toString(36).slice(2, 10);

let fx: AdminCliFixture;
let auth: DashboardAuth;

beforeAll(async () => {
  fx = await startAdminCliFixture('admin-cli-users');
  const tables = readHostFile(fx.dataDir)?.tables;
  if (!tables) throw new Error('the fixture wrote no host file');
  auth = makeDashboardAuth({
    users: makeDynamoUserStore(makeDocumentClient(fx.client), tables),
    tenancy: fx.store,
    clock: systemClock,
    logger: silentLogger,
  });
});

afterAll(() => fx?.close());

const tokenOf = (link: string) => LINK.exec(link)?.[1] ?? '';

describe('admin CLI: the dashboard owner and invitations', () => {
  it('bootstrap --owner-email makes the owner and prints a one-time link under the host address', async () => {
    // Prepare
    const ownerEmail = `Owner-${unique()}@Example.com`;

    // Act
    const result = await fx.cliJson<BootstrapResult & { owner: LinkFacts }>([
      ...['bootstrap', '--name', 'Acme'],
      ...['--owner-email', ownerEmail],
    ]);
    const text = await fx.cli(['bootstrap', '--owner-email', `text-${unique()}@example.com`]);

    // Assess
    expect(result.owner).toMatchObject({ email: ownerEmail.toLowerCase(), role: 'owner' });
    expect(result.owner.setPasswordLink).toMatch(LINK);
    expect(Date.parse(result.owner.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const user = await auth.peekSetPasswordLink(tokenOf(result.owner.setPasswordLink));
    expect(user).toMatchObject({ tenantId: result.tenantId, role: 'owner', userId: result.owner.userId });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Set-password link for text-.*@example\.com \(one use, until /);
    expect(text.stdout).toContain('Give this link to that person now: it works once and is shown only once.');
  });

  it('refuses an email that is a user already before making a tenant, and a malformed one as usage', async () => {
    // Prepare
    const ownerEmail = `taken-${unique()}@example.com`;
    await fx.cliJson(['bootstrap', '--owner-email', ownerEmail]);

    // Act
    const taken = await fx.cli(['bootstrap', '--owner-email', ownerEmail, '--json']);
    const malformed = await fx.cli(['bootstrap', '--owner-email', 'not-an-email']);

    // Assess
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stdout)).toMatchObject({ error: 'conflict' });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--owner-email must be an email address');
  });

  it('invite-user gives a viewer of named workspaces a 7-day link that sets their password once', async () => {
    // Prepare
    const { tenantId, workspaceId } = await fx.cliJson<BootstrapResult>(['bootstrap']);
    const address = `viewer-${unique()}@example.com`;

    // Act
    const invited = await fx.cliJson<LinkFacts & { workspaceIds: string[] }>([
      ...['invite-user', '--tenant', tenantId, '--email', address],
      ...['--role', 'viewer', '--workspaces', workspaceId],
    ]);
    const first = await auth.setPasswordWithLink(tokenOf(invited.setPasswordLink), 'a long enough password');
    const second = await auth.setPasswordWithLink(tokenOf(invited.setPasswordLink), 'a long enough password');

    // Assess
    expect(invited).toMatchObject({ email: address, role: 'viewer', workspaceIds: [workspaceId] });
    expect(Date.parse(invited.expiresAt) - Date.now()).toBeGreaterThan(6 * 86400_000);
    expect(first?.user).toMatchObject({ tenantId, role: 'viewer', workspaceIds: [workspaceId] });
    expect(second).toBeUndefined();
  });

  it('invite-user checks the role and its workspaces', async () => {
    // Prepare
    const { tenantId, workspaceId } = await fx.cliJson<BootstrapResult>(['bootstrap']);
    const invite = (...rest: string[]) =>
      fx.cli(['invite-user', '--tenant', tenantId, '--email', `x-${unique()}@example.com`, ...rest]);

    // Act
    const owner = await invite('--role', 'owner');
    const superWithWorkspaces = await invite('--role', 'super_admin', '--workspaces', workspaceId);
    const viewerWithout = await invite('--role', 'viewer');
    const foreignWorkspace = await invite(
      '--role',
      'viewer',
      '--workspaces',
      'wks_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    );
    const superAdmin = await invite('--role', 'super_admin');

    // Assess
    expect(owner.code).toBe(2);
    expect(owner.stderr).toContain('--role must be one of super_admin, workspace_admin, viewer');
    expect(superWithWorkspaces.code).toBe(2);
    expect(viewerWithout.code).toBe(2);
    expect(viewerWithout.stderr).toContain('needs --workspaces');
    expect(foreignWorkspace.code).toBe(1);
    expect(foreignWorkspace.stderr).toContain('No such workspace');
    expect(superAdmin.code).toBe(0);
  });

  it('user-link gives an existing user a new link that sets a new password, and names an unknown email', async () => {
    // Prepare
    const ownerEmail = `reissue-${unique()}@example.com`;
    const { owner } = await fx.cliJson<BootstrapResult & { owner: LinkFacts }>([
      ...['bootstrap', '--owner-email', ownerEmail],
    ]);
    const first = await auth.setPasswordWithLink(tokenOf(owner.setPasswordLink), 'the first long password');

    // Act
    const reissued = await fx.cliJson<LinkFacts>(['user-link', '--email', ownerEmail]);
    const again = await auth.setPasswordWithLink(
      tokenOf(reissued.setPasswordLink),
      'the second long password',
    );
    const unknown = await fx.cli(['user-link', '--email', `nobody-${unique()}@example.com`]);

    // Assess
    expect(reissued).toMatchObject({ userId: owner.userId, email: ownerEmail, role: 'owner' });
    expect(reissued.setPasswordLink).not.toBe(owner.setPasswordLink);
    expect(again?.user.userId).toBe(owner.userId);
    expect(first && (await auth.resolveSession(first.sessionToken))).toBeUndefined();
    const refused = await auth.signIn({
      email: ownerEmail,
      password: 'the first long password',
      sourceIp: '',
    });
    expect(refused.kind).toBe('refused');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user with the email');
  });

  it('user-link revokes the earlier links: after the newer one is used, an older one sets nothing', async () => {
    // Prepare
    const ownerEmail = `revoke-${unique()}@example.com`;
    const { owner } = await fx.cliJson<BootstrapResult & { owner: LinkFacts }>([
      ...['bootstrap', '--owner-email', ownerEmail],
    ]);
    const older = await fx.cliJson<LinkFacts>(['user-link', '--email', ownerEmail]);
    const newer = await fx.cliJson<LinkFacts>(['user-link', '--email', ownerEmail]);

    // Act
    const usedNewer = await auth.setPasswordWithLink(
      tokenOf(newer.setPasswordLink),
      'the newer long password',
    );
    const peekOlder = await auth.peekSetPasswordLink(tokenOf(older.setPasswordLink));
    const usedOlder = await auth.setPasswordWithLink(
      tokenOf(older.setPasswordLink),
      'the older long password',
    );
    const usedFirst = await auth.setPasswordWithLink(
      tokenOf(owner.setPasswordLink),
      'the first long password',
    );

    // Assess
    expect(usedNewer?.user.userId).toBe(owner.userId);
    expect(peekOlder).toBeUndefined();
    expect(usedOlder).toBeUndefined();
    expect(usedFirst).toBeUndefined();
    expect(usedNewer && (await auth.resolveSession(usedNewer.sessionToken))).toBeDefined();
    const signedIn = await auth.signIn({
      email: ownerEmail,
      password: 'the newer long password',
      sourceIp: '',
    });
    expect(signedIn.kind).toBe('signed_in');
  });

  it('user-link revokes the earlier links before either is used', async () => {
    // Prepare
    const ownerEmail = `revoke-unused-${unique()}@example.com`;
    await fx.cliJson(['bootstrap', '--owner-email', ownerEmail]);
    const older = await fx.cliJson<LinkFacts>(['user-link', '--email', ownerEmail]);
    const newer = await fx.cliJson<LinkFacts>(['user-link', '--email', ownerEmail]);

    // Act
    const usedOlder = await auth.setPasswordWithLink(
      tokenOf(older.setPasswordLink),
      'the older long password',
    );
    const usedNewer = await auth.setPasswordWithLink(
      tokenOf(newer.setPasswordLink),
      'the newer long password',
    );

    // Assess
    expect(usedOlder).toBeUndefined();
    expect(usedNewer?.user.email).toBe(ownerEmail);
  });

  it('prints the link as a path when the target does not tell its address', async () => {
    // Prepare
    const file = readHostFile(fx.dataDir);
    if (!file) throw new Error('the fixture wrote no host file');
    const dataDir = fx.tempDir();
    writeHostFile(dataDir, { ...file, baseUrl: '', dynamodbEndpoint: inject('dynamodbEndpoint') });

    // Act
    const result = await fx.cli(['bootstrap', '--owner-email', `path-${unique()}@example.com`], {
      env: { DATA_DIR: dataDir },
    });

    // Assess
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}\/dashboard\/welcome\/[A-Za-z0-9_-]{43}$/m);
    expect(result.stdout).toContain("prefix it with the service's public address");
  });
});
