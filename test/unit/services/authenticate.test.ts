import { beforeEach, describe, expect, it } from 'vitest';
import { apiKeyHint, generateApiKey, hashApiKey } from '../../../shared/domain/api-keys.js';
import { UnauthorizedError } from '../../../shared/domain/errors.js';
import type { ApiKeyRecord } from '../../../shared/domain/tenancy.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import { makeAuthenticator } from '../../../shared/services/authenticate.js';
import { anAgent, aTenant } from '../support/builders.js';
import { InMemoryTenancyStore } from '../support/in-memory-tenancy-store.js';

const START = Date.UTC(2025, 0, 1, 12, 0, 0);
const TTL = 30_000;

const tenant = aTenant({ tenantId: 'ten_T1' });
const agent = anAgent({ tenantId: 'ten_T1', agentId: 'agt_A1' });

function keyRecordFor(plaintext: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    keyId: 'key_K1',
    tenantId: 'ten_T1',
    agentId: 'agt_A1',
    keyHash: hashApiKey(plaintext),
    hint: apiKeyHint(plaintext),
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Asserts that the promise rejects with a 401, and not with anything else. */
async function expectUnauthorized(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(UnauthorizedError);
}

describe('makeAuthenticator', () => {
  let store: InMemoryTenancyStore;
  let clock: ReturnType<typeof fixedClock>;
  let plaintext: string;

  beforeEach(async () => {
    store = new InMemoryTenancyStore();
    clock = fixedClock(START);
    plaintext = generateApiKey();
    await store.putTenant(tenant);
    await store.putAgent(agent);
    await store.putApiKey(keyRecordFor(plaintext));
  });

  const authenticator = (cacheTtlMs = TTL) => makeAuthenticator({ tenancy: store, clock, cacheTtlMs });

  describe('rejects with 401', () => {
    it.each([
      ['no header', () => undefined],
      ['an empty header', () => ''],
      ['the Basic scheme', () => `Basic ${Buffer.from('user:pass').toString('base64')}`],
      ['a key without scheme', (key: string) => key],
      ['two spaces after Bearer', (key: string) => `Bearer  ${key}`],
      ['a key followed by more text', (key: string) => `Bearer ${key} extra`],
      ['Bearer and no key', () => 'Bearer '],
      ['an uppercase key', (key: string) => `Bearer ${key.toUpperCase()}`],
      ['a key one character short', (key: string) => `Bearer ${key.slice(0, -1)}`],
      ['a key with another prefix', (key: string) => `Bearer sk_live_${key.slice(5)}`],
    ])('%s', async (_label, header) => {
      // Act / Assess
      await expectUnauthorized(authenticator().authenticate(header(plaintext)));
      expect(store.reads.getApiKeyByHash).toBe(0);
    });

    it('a well-formed key that no record has', async () => {
      await expectUnauthorized(authenticator().authenticate(`Bearer ${generateApiKey()}`));
    });

    it('a revoked key', async () => {
      // Prepare
      await store.revokeApiKey('ten_T1', 'key_K1', '2025-01-01T11:00:00.000Z');

      // Act / Assess
      await expectUnauthorized(authenticator().authenticate(`Bearer ${plaintext}`));
    });

    it('a key whose agent was deleted', async () => {
      // Prepare
      await store.putAgent({ ...agent, deletedAt: '2025-01-01T11:00:00.000Z' });

      // Act / Assess
      await expectUnauthorized(authenticator().authenticate(`Bearer ${plaintext}`));
    });

    it('a key whose agent does not exist', async () => {
      // Prepare
      const orphan = generateApiKey();
      await store.putApiKey(keyRecordFor(orphan, { keyId: 'key_K2', agentId: 'agt_gone' }));

      // Act / Assess
      await expectUnauthorized(authenticator().authenticate(`Bearer ${orphan}`));
    });

    it('a key whose tenant does not exist', async () => {
      // Prepare
      const orphan = generateApiKey();
      await store.putAgent(anAgent({ tenantId: 'ten_gone', agentId: 'agt_A1' }));
      await store.putApiKey(keyRecordFor(orphan, { keyId: 'key_K3', tenantId: 'ten_gone' }));

      // Act / Assess
      await expectUnauthorized(authenticator().authenticate(`Bearer ${orphan}`));
    });
  });

  it('resolves a valid key to its tenant, agent and key id', async () => {
    // Act
    const principal = await authenticator().authenticate(`Bearer ${plaintext}`);

    // Assess
    expect(principal).toEqual({ tenant, agent, keyId: 'key_K1' });
  });

  it('accepts the scheme in any case and surrounding whitespace', async () => {
    // Act
    const principal = await authenticator().authenticate(`  bearer ${plaintext}\t`);

    // Assess
    expect(principal.keyId).toBe('key_K1');
  });

  it('resolves a key of a tenant whose plan is inactive (the caller answers 403 for that)', async () => {
    // Prepare
    await store.setPlan('ten_T1', { planStatus: 'inactive' });

    // Act
    const principal = await authenticator().authenticate(`Bearer ${plaintext}`);

    // Assess
    expect(principal.tenant.planStatus).toBe('inactive');
  });

  it('looks a key up by its SHA-256 hash, never by its plaintext', async () => {
    // Prepare: a record stored under the plaintext instead of the hash must not match.
    const other = generateApiKey();
    await store.putApiKey(keyRecordFor(other, { keyId: 'key_plain', keyHash: other }));

    // Act / Assess
    await expectUnauthorized(authenticator().authenticate(`Bearer ${other}`));
  });

  describe('cache', () => {
    it('serves a resolved key from the cache without reading the store again', async () => {
      // Prepare
      const auth = authenticator();
      await auth.authenticate(`Bearer ${plaintext}`);

      // Act
      clock.advance(TTL - 1);
      const principal = await auth.authenticate(`Bearer ${plaintext}`);

      // Assess
      expect(principal.keyId).toBe('key_K1');
      expect(store.reads).toEqual({ getApiKeyByHash: 1, getTenantAndAgent: 1 });
    });

    it('does not yet see a revocation inside the TTL, and sees it once the TTL has passed', async () => {
      // Prepare
      const auth = authenticator();
      await auth.authenticate(`Bearer ${plaintext}`);
      await store.revokeApiKey('ten_T1', 'key_K1', new Date(START + 1_000).toISOString());

      // Act
      clock.advance(TTL - 1);
      const inside = await auth.authenticate(`Bearer ${plaintext}`);
      clock.advance(1);
      const after = auth.authenticate(`Bearer ${plaintext}`);

      // Assess
      expect(inside.keyId).toBe('key_K1');
      await expectUnauthorized(after);
    });

    it('sees a deleted agent once the TTL has passed', async () => {
      // Prepare
      const auth = authenticator();
      await auth.authenticate(`Bearer ${plaintext}`);
      await store.putAgent({ ...agent, deletedAt: new Date(START).toISOString() });

      // Act
      clock.advance(TTL);

      // Assess
      await expectUnauthorized(auth.authenticate(`Bearer ${plaintext}`));
    });

    it('sees a plan change once the TTL has passed', async () => {
      // Prepare
      const auth = authenticator();
      await auth.authenticate(`Bearer ${plaintext}`);
      await store.setPlan('ten_T1', { planStatus: 'inactive' });

      // Act
      const inside = await auth.authenticate(`Bearer ${plaintext}`);
      clock.advance(TTL);
      const after = await auth.authenticate(`Bearer ${plaintext}`);

      // Assess
      expect(inside.tenant.planStatus).toBe('active');
      expect(after.tenant.planStatus).toBe('inactive');
    });

    it('does not remember a failure: a key unknown at first works as soon as it exists', async () => {
      // Prepare
      const auth = authenticator();
      const later = generateApiKey();
      await expectUnauthorized(auth.authenticate(`Bearer ${later}`));
      await store.putApiKey(keyRecordFor(later, { keyId: 'key_later' }));

      // Act
      const principal = await auth.authenticate(`Bearer ${later}`);

      // Assess
      expect(principal.keyId).toBe('key_later');
    });

    it('keeps keys apart: a cached key never answers for another key', async () => {
      // Prepare
      const auth = authenticator();
      const second = generateApiKey();
      await store.putApiKey(keyRecordFor(second, { keyId: 'key_K2' }));
      await auth.authenticate(`Bearer ${plaintext}`);

      // Act
      const principal = await auth.authenticate(`Bearer ${second}`);

      // Assess
      expect(principal.keyId).toBe('key_K2');
    });

    it('with cacheTtlMs 0 reads the store on every call and sees a revocation at once', async () => {
      // Prepare
      const auth = authenticator(0);
      await auth.authenticate(`Bearer ${plaintext}`);
      await auth.authenticate(`Bearer ${plaintext}`);
      await store.revokeApiKey('ten_T1', 'key_K1', new Date(START).toISOString());

      // Act
      const afterRevocation = auth.authenticate(`Bearer ${plaintext}`);

      // Assess
      await expectUnauthorized(afterRevocation);
      expect(store.reads.getApiKeyByHash).toBe(3);
      expect(store.reads.getTenantAndAgent).toBe(2);
    });
  });
});
