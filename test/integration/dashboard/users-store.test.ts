import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../../shared/adapters/dynamodb/create-tables.js';
import { keys } from '../../../shared/adapters/dynamodb/keys.js';
import { localTableNames, type TableNames } from '../../../shared/adapters/dynamodb/tables.js';
import { makeDynamoUserStore } from '../../../shared/adapters/dynamodb/user-store.js';
import { ConflictError } from '../../../shared/domain/errors.js';
import { newId } from '../../../shared/domain/ids.js';
import type { DashboardSession, OneTimeToken, User } from '../../../shared/domain/users.js';
import type { UserStore } from '../../../shared/ports/user-store.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const unique = () => Math.random().toString(36).slice(2, 10);

function user(overrides: Partial<User> = {}): User {
  return {
    userId: newId('user', NOW),
    tenantId: newId('tenant', NOW),
    email: `person-${unique()}@example.com`,
    role: 'viewer',
    workspaceIds: [newId('workspace', NOW)],
    sessionEpoch: 0,
    createdAt: iso(NOW),
    ...overrides,
  };
}

function session(owner: User, overrides: Partial<DashboardSession> = {}): DashboardSession {
  return {
    sessionHash: unique().padEnd(64, 'a'),
    tenantId: owner.tenantId,
    userId: owner.userId,
    csrfToken: 'csrf-token',
    sessionEpoch: owner.sessionEpoch,
    createdAt: iso(NOW),
    expiresAt: iso(NOW + 12 * 3600_000),
    ...overrides,
  };
}

function oneTimeToken(owner: User): OneTimeToken {
  return {
    tokenHash: unique().padEnd(64, 'b'),
    tenantId: owner.tenantId,
    userId: owner.userId,
    purpose: 'set_password',
    createdAt: iso(NOW),
    expiresAt: iso(NOW + 7 * 86400_000),
  };
}

describe('user store on DynamoDB Local', () => {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
  const db = makeDocumentClient(client);
  let tables: TableNames;
  let store: UserStore;

  beforeAll(async () => {
    tables = localTableNames(`u${unique().slice(0, 6)}-`);
    await ensureTables(client, tables);
    store = makeDynamoUserStore(db, tables);
  });
  afterAll(() => client.destroy());

  it('keeps a user under their tenant and finds them by email', async () => {
    // Prepare
    const written = user();

    // Act
    await store.createUser(written);

    // Assess
    expect(await store.getUser(written.tenantId, written.userId)).toEqual(written);
    expect(await store.findUserByEmail(written.email)).toEqual(written);
    expect(await store.getUser(newId('tenant'), written.userId)).toBeUndefined();
    expect(await store.findUserByEmail('nobody@example.com')).toBeUndefined();
  });

  it('refuses a second user with the same email, even in another tenant, and keeps the first', async () => {
    // Prepare
    const first = user();
    await store.createUser(first);

    // Act
    const second = store.createUser(user({ email: first.email }));

    // Assess
    await expect(second).rejects.toBeInstanceOf(ConflictError);
    expect(await store.findUserByEmail(first.email)).toEqual(first);
  });

  it('of five users racing for one email, exactly one is created', async () => {
    // Prepare
    const email = `race-${unique()}@example.com`;
    const racers = Array.from({ length: 5 }, () => user({ email }));

    // Act
    const outcomes = await Promise.allSettled(racers.map((racer) => store.createUser(racer)));

    // Assess
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const winner = racers[outcomes.findIndex((o) => o.status === 'fulfilled')];
    expect(await store.findUserByEmail(email)).toEqual(winner);
  });

  it('lists the users of one tenant only', async () => {
    // Prepare
    const tenantId = newId('tenant');
    const mine = [user({ tenantId }), user({ tenantId, role: 'owner', workspaceIds: [] })];
    for (const one of [...mine, user()]) await store.createUser(one);

    // Act
    const listed = await store.listUsers(tenantId);

    // Assess
    expect(listed.map((u) => u.userId).sort()).toEqual(mine.map((u) => u.userId).sort());
  });

  it('setting a password stores the hash and bumps the session and link epochs', async () => {
    // Prepare
    const written = user({ sessionEpoch: 3 });
    await store.createUser(written);

    // Act
    const updated = await store.setPassword(written.tenantId, written.userId, 'scrypt$hash');

    // Assess
    expect(updated).toEqual({ ...written, passwordHash: 'scrypt$hash', sessionEpoch: 4, linkEpoch: 1 });
    expect(await store.getUser(written.tenantId, written.userId)).toEqual(updated);
  });

  it('sets a password with a link only under the user’s current link epoch, and moves it on', async () => {
    // Prepare
    const written = user();
    await store.createUser(written);
    const epoch = await store.revokeSetPasswordLinks(written.tenantId, written.userId);

    // Act
    const stale = await store.setPasswordWithLink(written.tenantId, written.userId, 'scrypt$stale', 0);
    const current = await store.setPasswordWithLink(written.tenantId, written.userId, 'scrypt$new', epoch);
    const again = await store.setPasswordWithLink(written.tenantId, written.userId, 'scrypt$again', epoch);
    const nobody = await store.setPasswordWithLink(written.tenantId, newId('user', NOW), 'scrypt$x', 0);

    // Assess
    expect(epoch).toBe(1);
    expect(stale).toBeUndefined();
    expect(current).toEqual({ ...written, passwordHash: 'scrypt$new', sessionEpoch: 1, linkEpoch: 2 });
    expect(again).toBeUndefined();
    expect(nobody).toBeUndefined();
    expect(await store.getUser(written.tenantId, written.userId)).toEqual(current);
  });

  it('a link from before link epochs sets the password while the user has none', async () => {
    // Prepare
    const written = user();
    await store.createUser(written);

    // Act
    const updated = await store.setPasswordWithLink(written.tenantId, written.userId, 'scrypt$hash', 0);

    // Assess
    expect(updated).toMatchObject({ passwordHash: 'scrypt$hash', linkEpoch: 1 });
  });

  it('a session comes back as written, carries the TTL in epoch seconds, and is gone once deleted', async () => {
    // Prepare
    const owner = user();
    const written = session(owner);

    // Act
    await store.putSession(written);
    const read = await store.getSession(written.sessionHash);
    const { Item } = await db.send(
      new GetCommand({ TableName: tables.main, Key: keys.session(written.sessionHash) }),
    );
    await store.deleteSession(written.sessionHash);

    // Assess
    expect(read).toEqual(written);
    expect(Item?.expiresAt).toBe(Date.parse(written.expiresAt) / 1000);
    expect(Item?.expiresAtIso).toBe(written.expiresAt);
    expect(await store.getSession(written.sessionHash)).toBeUndefined();
  });

  it('a one-time token can be read many times but taken once, also by ten racing takers', async () => {
    // Prepare
    const written = oneTimeToken(user());
    await store.putOneTimeToken(written);

    // Act
    const peeked = await store.getOneTimeToken(written.tokenHash);
    const takes = await Promise.all(
      Array.from({ length: 10 }, () => store.takeOneTimeToken(written.tokenHash)),
    );

    // Assess
    expect(peeked).toEqual(written);
    expect(takes.filter((taken) => taken !== undefined)).toEqual([written]);
    expect(await store.getOneTimeToken(written.tokenHash)).toBeUndefined();
  });

  it('counts sign-in failures per key and window in the rate-limits table, never the main table', async () => {
    // Prepare
    const key = `email:${unique()}`;
    const window = iso(NOW);
    const expiresAt = iso(NOW + 20 * 60_000);

    // Act
    const counts = await Promise.all([1, 2, 3].map(() => store.countSignInFailure(key, window, expiresAt)));
    const later = await store.signInFailures(key, iso(NOW + 15 * 60_000));
    const { Item: counter } = await db.send(
      new GetCommand({ TableName: tables.rateLimits, Key: { pk: `SIGNIN#${key}#${window}` } }),
    );
    const { Item: inMain } = await db.send(
      new GetCommand({ TableName: tables.main, Key: { pk: `SIGNIN#${key}#${window}`, sk: 'SIGNIN' } }),
    );

    // Assess
    expect(counts.sort()).toEqual([1, 2, 3]);
    expect(await store.signInFailures(key, window)).toBe(3);
    expect(later).toBe(0);
    expect(counter?.expiresAt).toBe(Date.parse(expiresAt) / 1000);
    expect(inMain).toBeUndefined();
  });
});
