import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../../shared/adapters/dynamodb/create-tables.js';
import { localTableNames } from '../../../shared/adapters/dynamodb/tables.js';
import { makeDynamoTenancyStore } from '../../../shared/adapters/dynamodb/tenancy-store.js';
import { makeDynamoUserStore } from '../../../shared/adapters/dynamodb/user-store.js';
import {
  ConflictError,
  InvalidRequestError,
  PermissionDeniedError,
  RateLimitedError,
} from '../../../shared/domain/errors.js';
import type { User } from '../../../shared/domain/users.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import type { TenancyStore } from '../../../shared/ports/tenancy-store.js';
import type { UserStore } from '../../../shared/ports/user-store.js';
import { makeAdmin } from '../../../shared/services/admin.js';
import type { DashboardAuth } from '../../../shared/services/users/dashboard-auth.js';
import { makeDashboardAuth } from '../../../shared/services/users/make-dashboard-auth.js';
import { newSecretToken, sha256Hex } from '../../../shared/services/users/secrets.js';
import { makeUserAdmin, type UserAdmin } from '../../../shared/services/users/user-admin.js';

const START = Date.parse('2030-01-01T00:00:00Z');
const PASSWORD = 'correct horse battery';
const unique = () => Math.random().toString(36).slice(2, 10);

describe('dashboard people use cases on DynamoDB Local', () => {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
  const db = makeDocumentClient(client);
  const clock = fixedClock(START);
  let users: UserStore;
  let tenancy: TenancyStore;
  let auth: DashboardAuth;
  let userAdmin: UserAdmin;
  let admin: ReturnType<typeof makeAdmin>;

  beforeAll(async () => {
    const tables = localTableNames(`a${unique().slice(0, 6)}-`);
    await ensureTables(client, tables);
    users = makeDynamoUserStore(db, tables);
    tenancy = makeDynamoTenancyStore(db, tables.main);
    const deps = { users, tenancy, clock, logger: silentLogger };
    auth = makeDashboardAuth(deps);
    userAdmin = makeUserAdmin(deps);
    admin = makeAdmin({ tenancy, clock });
  });
  beforeEach(() => clock.set(START));
  afterAll(() => client.destroy());

  /** A tenant whose owner has set PASSWORD through their first link. */
  async function ownerWithPassword(): Promise<User> {
    const tenant = await admin.createTenant({ name: 'Acme' });
    const link = await userAdmin.createOwner({
      tenantId: tenant.tenantId,
      email: `Owner-${unique()}@Example.com`,
    });
    const done = await auth.setPasswordWithLink(link.token, PASSWORD);
    if (!done) throw new Error('the owner link did not work');
    return done.user;
  }

  const signIn = (email: string, password: string, sourceIp = `10.0.0.${Math.floor(Math.random() * 250)}`) =>
    auth.signIn({ email, password, sourceIp });

  it('makes the owner with a lower-case email and a 24-hour link that stores only a hash', async () => {
    // Prepare
    const tenant = await admin.createTenant({ name: 'Acme' });

    // Act
    const link = await userAdmin.createOwner({ tenantId: tenant.tenantId, email: ' Boss@Example.COM ' });

    // Assess
    expect(link.user).toMatchObject({ role: 'owner', email: 'boss@example.com', workspaceIds: [] });
    expect(link.user.passwordHash).toBeUndefined();
    expect(link.expiresAt).toBe(new Date(START + 24 * 3600_000).toISOString());
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await users.getOneTimeToken(link.token)).toBeUndefined();
    expect(await auth.peekSetPasswordLink(link.token)).toMatchObject({ userId: link.user.userId });
  });

  it('signs in with the right password and resolves the session until it expires after 12 hours', async () => {
    // Prepare
    const owner = await ownerWithPassword();

    // Act
    const outcome = await signIn(owner.email.toUpperCase(), PASSWORD);
    if (outcome.kind !== 'signed_in') throw new Error(`expected signed_in, got ${outcome.kind}`);
    const resolved = await auth.resolveSession(outcome.sessionToken);
    clock.advance(12 * 3600_000);
    const expired = await auth.resolveSession(outcome.sessionToken);

    // Assess
    expect(resolved?.user.userId).toBe(owner.userId);
    expect(resolved?.tenant.tenantId).toBe(owner.tenantId);
    expect(resolved?.session.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(outcome.session.sessionHash).not.toContain(outcome.sessionToken);
    expect(expired).toBeUndefined();
  });

  it('refuses a wrong password, an unknown email and a user without a password alike', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    const tenant = await admin.createTenant({ name: 'Other' });
    const pending = await userAdmin.createOwner({
      tenantId: tenant.tenantId,
      email: `new-${unique()}@example.com`,
    });

    // Act
    const outcomes = await Promise.all([
      signIn(owner.email, 'wrong password here'),
      signIn(`nobody-${unique()}@example.com`, PASSWORD),
      signIn(pending.user.email, ''),
    ]);

    // Assess
    expect(outcomes).toEqual([{ kind: 'refused' }, { kind: 'refused' }, { kind: 'refused' }]);
  });

  it('throttles an email after 5 failures in 15 minutes, even with the right password, until the window ends', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    clock.set(START + 60_000);
    for (let i = 0; i < 5; i++)
      expect((await signIn(owner.email, 'wrong password here')).kind).toBe('refused');

    // Act
    const throttled = await signIn(owner.email, PASSWORD);
    clock.set(START + 15 * 60_000);
    const afterWindow = await signIn(owner.email, PASSWORD);

    // Assess
    expect(throttled).toEqual({ kind: 'throttled', retryAfterSeconds: 14 * 60 });
    expect(afterWindow.kind).toBe('signed_in');
  });

  it('throttles an address after 20 failures, whatever the email', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    const address = `192.0.2.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 20; i++)
      await signIn(`guess-${i}-${unique()}@example.com`, 'wrong password here', address);

    // Act
    const fromThere = await signIn(owner.email, PASSWORD, address);
    const fromElsewhere = await signIn(owner.email, PASSWORD, '198.51.100.1');

    // Assess
    expect(fromThere.kind).toBe('throttled');
    expect(fromElsewhere.kind).toBe('signed_in');
  });

  it('counts only failures: successful sign-ins never throttle', async () => {
    // Prepare
    const owner = await ownerWithPassword();

    // Act
    const outcomes = [];
    for (let i = 0; i < 7; i++) outcomes.push((await signIn(owner.email, PASSWORD, '203.0.113.9')).kind);

    // Assess
    expect(outcomes).toEqual(Array(7).fill('signed_in'));
  });

  it('a password change ends every session and gives this browser a new one', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    const first = await signIn(owner.email, PASSWORD);
    const second = await signIn(owner.email, PASSWORD);
    if (first.kind !== 'signed_in' || second.kind !== 'signed_in') throw new Error('sign-in failed');

    // Act
    const fresh = await auth.changePassword(owner, {
      currentPassword: PASSWORD,
      newPassword: 'a new long password',
    });

    // Assess
    expect(await auth.resolveSession(first.sessionToken)).toBeUndefined();
    expect(await auth.resolveSession(second.sessionToken)).toBeUndefined();
    expect((await auth.resolveSession(fresh.sessionToken))?.user.userId).toBe(owner.userId);
    expect((await signIn(owner.email, PASSWORD)).kind).toBe('refused');
    expect((await signIn(owner.email, 'a new long password')).kind).toBe('signed_in');
  });

  it('refuses a wrong current password or a short new one, and changes nothing', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    const session = await signIn(owner.email, PASSWORD);
    if (session.kind !== 'signed_in') throw new Error('sign-in failed');

    // Act
    const wrong = await auth
      .changePassword(owner, { currentPassword: 'not the password', newPassword: 'another long one' })
      .catch((error: unknown) => error);
    const short = await auth
      .changePassword(owner, { currentPassword: PASSWORD, newPassword: 'short' })
      .catch((error: unknown) => error);

    // Assess
    expect(wrong).toMatchObject({ details: { currentPassword: [expect.any(String)] } });
    expect(short).toMatchObject({ details: { newPassword: ['Use at least 12 characters.'] } });
    expect(await auth.resolveSession(session.sessionToken)).toBeDefined();
  });

  it('throttles guessing the current password from a session', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    for (let i = 0; i < 5; i++) {
      await expect(
        auth.changePassword(owner, { currentPassword: `guess number ${i}`, newPassword: 'another long one' }),
      ).rejects.toBeInstanceOf(InvalidRequestError);
    }

    // Act
    const attempt = auth.changePassword(owner, {
      currentPassword: PASSWORD,
      newPassword: 'another long one',
    });

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('a session ends on sign-out, and one whose tenant is gone is no session', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    const session = await signIn(owner.email, PASSWORD);
    if (session.kind !== 'signed_in') throw new Error('sign-in failed');
    const orphanToken = newSecretToken();
    await users.putSession({ ...session.session, sessionHash: sha256Hex(orphanToken), tenantId: 'ten_gone' });

    // Act
    await auth.signOut(session.sessionToken);

    // Assess
    expect(await auth.resolveSession(session.sessionToken)).toBeUndefined();
    expect(await auth.resolveSession(orphanToken)).toBeUndefined();
    expect(await auth.resolveSession('not-a-token')).toBeUndefined();
  });

  it('an invitation link works once, sets the password and signs the person in; a weak password keeps it', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    const workspace = await admin.createWorkspace({ tenantId: owner.tenantId, name: 'Main' });
    const link = await auth.inviteUser(owner, {
      email: `Viewer-${unique()}@example.com`,
      role: 'viewer',
      workspaceIds: [workspace.workspaceId, workspace.workspaceId],
    });

    // Act
    const weak = auth.setPasswordWithLink(link.token, 'short');
    await expect(weak).rejects.toBeInstanceOf(InvalidRequestError);
    const first = await auth.setPasswordWithLink(link.token, PASSWORD);
    const second = await auth.setPasswordWithLink(link.token, PASSWORD);

    // Assess
    expect(link.expiresAt).toBe(new Date(START + 7 * 86400_000).toISOString());
    expect(first?.user).toMatchObject({
      role: 'viewer',
      workspaceIds: [workspace.workspaceId],
      invitedBy: owner.userId,
    });
    expect((await auth.resolveSession(first?.sessionToken ?? ''))?.user.userId).toBe(link.user.userId);
    expect(second).toBeUndefined();
    expect(await auth.peekSetPasswordLink(link.token)).toBeUndefined();
  });

  it('a new link revokes the earlier ones, and a password change revokes every link', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    const older = await userAdmin.reissueLink({ email: owner.email });
    const newer = await userAdmin.reissueLink({ email: owner.email });

    // Act
    const peekedOlder = await auth.peekSetPasswordLink(older.token);
    const peekedNewer = await auth.peekSetPasswordLink(newer.token);
    await auth.changePassword(owner, { currentPassword: PASSWORD, newPassword: 'a new long password' });
    const afterChange = await auth.peekSetPasswordLink(newer.token);
    const usedAfterChange = await auth.setPasswordWithLink(newer.token, 'a third long password');

    // Assess
    expect(peekedOlder).toBeUndefined();
    expect(peekedNewer?.userId).toBe(owner.userId);
    expect(afterChange).toBeUndefined();
    expect(usedAfterChange).toBeUndefined();
    expect((await signIn(owner.email, 'a new long password')).kind).toBe('signed_in');
  });

  it('a link revoked while it is being used sets nothing', async () => {
    // Prepare: the link is taken, then a newer one is issued before its password is written.
    const owner = await ownerWithPassword();
    const link = await userAdmin.reissueLink({ email: owner.email });
    const racing: UserStore = {
      ...users,
      async takeOneTimeToken(tokenHash) {
        const taken = await users.takeOneTimeToken(tokenHash);
        await userAdmin.reissueLink({ email: owner.email });
        return taken;
      },
    };
    const racingAuth = makeDashboardAuth({ users: racing, tenancy, clock, logger: silentLogger });

    // Act
    const used = await racingAuth.setPasswordWithLink(link.token, 'a racing long password');

    // Assess
    expect(used).toBeUndefined();
    expect((await signIn(owner.email, PASSWORD)).kind).toBe('signed_in');
  });

  it('an expired link works no more', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    const link = await auth.inviteUser(owner, {
      email: `late-${unique()}@example.com`,
      role: 'super_admin',
      workspaceIds: [],
    });
    clock.advance(7 * 86400_000);

    // Act
    const peeked = await auth.peekSetPasswordLink(link.token);
    const used = await auth.setPasswordWithLink(link.token, PASSWORD);

    // Assess
    expect(peeked).toBeUndefined();
    expect(used).toBeUndefined();
  });

  it('keeps to the invitation rules', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    const workspace = await admin.createWorkspace({ tenantId: owner.tenantId, name: 'Main' });
    const superAdmin: User = { ...owner, role: 'super_admin' };
    const workspaceAdmin: User = { ...owner, role: 'workspace_admin', workspaceIds: [workspace.workspaceId] };
    const email = () => `rule-${unique()}@example.com`;

    // Act
    const bySuperAdmin = await auth.inviteUser(superAdmin, {
      email: email(),
      role: 'workspace_admin',
      workspaceIds: [workspace.workspaceId],
    });
    const attempts = [
      auth.inviteUser(superAdmin, { email: email(), role: 'super_admin', workspaceIds: [] }),
      auth.inviteUser(workspaceAdmin, {
        email: email(),
        role: 'viewer',
        workspaceIds: [workspace.workspaceId],
      }),
      auth.inviteUser(owner, { email: email(), role: 'owner', workspaceIds: [] }),
      auth.inviteUser(owner, { email: email(), role: 'viewer', workspaceIds: [] }),
      auth.inviteUser(owner, {
        email: email(),
        role: 'viewer',
        workspaceIds: ['wks_01J00000000000000000000000'],
      }),
      auth.inviteUser(owner, {
        email: 'not an email',
        role: 'viewer',
        workspaceIds: [workspace.workspaceId],
      }),
      auth.inviteUser(owner, { email: owner.email, role: 'super_admin', workspaceIds: [] }),
    ];

    // Assess
    expect(bySuperAdmin.user.role).toBe('workspace_admin');
    const errors = await Promise.all(
      attempts.map((attempt) =>
        attempt.then(
          () => undefined,
          (error) => error,
        ),
      ),
    );
    expect(errors[0]).toBeInstanceOf(PermissionDeniedError);
    expect(errors[1]).toBeInstanceOf(PermissionDeniedError);
    expect(errors[2]).toMatchObject({ details: { role: [expect.any(String)] } });
    expect(errors[3]).toMatchObject({ details: { workspaceIds: ['Choose at least one workspace.'] } });
    expect(errors[4]).toMatchObject({
      details: { workspaceIds: [expect.stringContaining('No such workspace')] },
    });
    expect(errors[5]).toMatchObject({ details: { email: [expect.any(String)] } });
    expect(errors[6]).toBeInstanceOf(ConflictError);
  });

  it('lists the tenant users without password hashes, for tenant admins only', async () => {
    // Prepare
    const owner = await ownerWithPassword();
    const workspace = await admin.createWorkspace({ tenantId: owner.tenantId, name: 'Main' });
    await auth.inviteUser(owner, {
      email: `list-${unique()}@example.com`,
      role: 'viewer',
      workspaceIds: [workspace.workspaceId],
    });

    // Act
    const listed = await auth.listUsers(owner);
    const byViewer = auth.listUsers({ ...owner, role: 'viewer' });

    // Assess
    // Both made in the same millisecond of the fixed clock: their ids, and so the order, differ only by chance.
    expect(listed.map((u) => u.role).sort()).toEqual(['owner', 'viewer']);
    expect(listed.every((u) => !('passwordHash' in u))).toBe(true);
    await expect(byViewer).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
