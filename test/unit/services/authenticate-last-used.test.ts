import { beforeEach, describe, expect, it } from 'vitest';
import { apiKeyHint, generateApiKey, hashApiKey } from '../../../shared/domain/api-keys.js';
import { UnauthorizedError } from '../../../shared/domain/errors.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import { makeAuthenticator } from '../../../shared/services/authenticate.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';
import { anAgent, aTenant } from '../support/builders.js';
import { InMemoryTenancyStore } from '../support/in-memory-tenancy-store.js';

const START = Date.UTC(2026, 0, 1, 12, 0, 0);
const TTL = 30_000;

/** A store whose recording of a use always fails, as a throttled table would. */
class FailingTouchStore extends InMemoryTenancyStore {
  override async touchApiKey(): Promise<void> {
    throw new Error('ProvisionedThroughputExceededException');
  }
}

describe('makeAuthenticator records when a key was last used', () => {
  let store: InMemoryTenancyStore;
  let clock: ReturnType<typeof fixedClock>;
  let plaintext: string;

  const seed = async (target: InMemoryTenancyStore) => {
    await target.putTenant(aTenant({ tenantId: 'ten_T1' }));
    await target.putAgent(anAgent({ tenantId: 'ten_T1', agentId: 'agt_A1' }));
    await target.putApiKey({
      keyId: 'key_K1',
      tenantId: 'ten_T1',
      agentId: 'agt_A1',
      keyHash: hashApiKey(plaintext),
      hint: apiKeyHint(plaintext),
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  };
  const lastUsed = async () => (await store.listApiKeys('ten_T1', 'agt_A1'))[0]?.lastUsedAt;

  beforeEach(async () => {
    store = new InMemoryTenancyStore();
    clock = fixedClock(START);
    plaintext = generateApiKey();
    await seed(store);
  });

  it('writes the time of a resolve that missed the cache', async () => {
    // Prepare
    const auth = makeAuthenticator({ tenancy: store, clock, cacheTtlMs: TTL });

    // Act
    await auth.authenticate(`Bearer ${plaintext}`);

    // Assess
    expect(await lastUsed()).toBe(new Date(START).toISOString());
  });

  it('writes at most once per cache period, and again after it', async () => {
    // Prepare
    const auth = makeAuthenticator({ tenancy: store, clock, cacheTtlMs: TTL });

    // Act
    await auth.authenticate(`Bearer ${plaintext}`);
    clock.advance(TTL - 1);
    await auth.authenticate(`Bearer ${plaintext}`);
    await auth.authenticate(`Bearer ${plaintext}`);
    const withinPeriod = store.writes.touchApiKey;
    clock.advance(1);
    await auth.authenticate(`Bearer ${plaintext}`);

    // Assess
    expect(withinPeriod).toBe(1);
    expect(store.writes.touchApiKey).toBe(2);
    expect(await lastUsed()).toBe(new Date(START + TTL).toISOString());
  });

  it('writes nothing for a revoked or unknown key', async () => {
    // Prepare
    const auth = makeAuthenticator({ tenancy: store, clock, cacheTtlMs: TTL });
    await store.revokeApiKey('ten_T1', 'key_K1', new Date(START).toISOString());

    // Act
    const revoked = auth.authenticate(`Bearer ${plaintext}`);
    const unknown = auth.authenticate(`Bearer ${generateApiKey()}`);

    // Assess
    await expect(revoked).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(unknown).rejects.toBeInstanceOf(UnauthorizedError);
    expect(store.writes.touchApiKey).toBe(0);
  });

  it('lets the request through and logs a warning when the write fails', async () => {
    // Prepare
    store = new FailingTouchStore();
    await seed(store);
    const logger = makeMemoryLogger();
    const auth = makeAuthenticator({ tenancy: store, clock, cacheTtlMs: TTL, logger });

    // Act
    const principal = await auth.authenticate(`Bearer ${plaintext}`);

    // Assess
    expect(principal.keyId).toBe('key_K1');
    expect(logger.entries).toEqual([
      expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ keyId: 'key_K1' }) }),
    ]);
    expect(JSON.stringify(logger.entries)).not.toContain(plaintext);
  });
});
