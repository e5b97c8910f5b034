import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../../../shared/ports/clock.js';
import type { OAuthStateStore, PendingConnect } from '../../../../shared/ports/oauth-state-store.js';
import {
  hashState,
  issueState,
  redeemState,
  STATE_LIFETIME_MS,
  type StateBinding,
} from '../../../../shared/services/accounts/oauth-state.js';
import { InMemoryOAuthStateStore } from '../../support/in-memory-oauth-state-store.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const binding: StateBinding = {
  tenantId: 'ten_1',
  workspaceId: 'wks_1',
  agentId: 'agt_1',
  platform: 'twitter',
  redirectUri: 'https://app.example.com/done',
};

/** A store that keeps what it was given, so a test can read what the table would hold. */
function recordingStore(): OAuthStateStore & { written: PendingConnect[] } {
  const inner = new InMemoryOAuthStateStore();
  const written: PendingConnect[] = [];
  return {
    written,
    async put(pending) {
      written.push(pending);
      await inner.put(pending);
    },
    take: (hash, now) => inner.take(hash, now),
  };
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

describe('OAuth state', () => {
  it('is redeemed once, with what it was bound to and the verifier of its challenge', async () => {
    // Prepare
    const deps = { oauthStates: recordingStore(), clock: fixedClock(NOW) };
    const issued = await issueState(deps, binding, true);

    // Act
    const first = await redeemState(deps, issued.state);
    const second = await redeemState(deps, issued.state);

    // Assess
    expect(first?.pending).toMatchObject({ ...binding, stateHash: hashState(issued.state) });
    expect(first?.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(s256(first?.codeVerifier ?? '')).toBe(issued.codeChallenge);
    expect(second).toBeUndefined();
    expect(issued.expiresAt).toBe(new Date(NOW + STATE_LIFETIME_MS).toISOString());
  });

  it('what is stored holds neither the state nor the verifier in the clear', async () => {
    // Prepare
    const deps = { oauthStates: recordingStore(), clock: fixedClock(NOW) };

    // Act
    const issued = await issueState(deps, binding, true);

    // Assess
    const redeemed = await redeemState({ ...deps, oauthStates: deps.oauthStates }, issued.state);
    const stored = JSON.stringify(deps.oauthStates.written);
    expect(stored).not.toContain(issued.state);
    expect(stored).not.toContain(redeemed?.codeVerifier);
    expect(deps.oauthStates.written[0]?.sealedVerifier).toMatch(/^v1\./);
  });

  it('a verifier sealed under one state does not open under another', async () => {
    // Prepare: the item of state A, presented under the hash of state B.
    const store = recordingStore();
    const deps = { oauthStates: store, clock: fixedClock(NOW) };
    const a = await issueState(deps, binding, true);
    const b = await issueState(deps, binding, true);
    const aItem = store.written[0] as PendingConnect;
    const bHash = hashState(b.state);
    await store.take(bHash, NOW);
    await store.put({ ...aItem, stateHash: bHash });

    // Act
    const swapped = await redeemState(deps, b.state);

    // Assess
    expect(swapped).toBeUndefined();
    expect(await redeemState(deps, a.state)).toBeDefined();
  });

  it('is refused once its 10 minutes are over', async () => {
    const clock = fixedClock(NOW);
    const deps = { oauthStates: new InMemoryOAuthStateStore(), clock };
    const issued = await issueState(deps, binding, true);
    clock.advance(STATE_LIFETIME_MS);
    expect(await redeemState(deps, issued.state)).toBeUndefined();
  });

  it('without PKCE: no challenge, no verifier', async () => {
    const deps = { oauthStates: new InMemoryOAuthStateStore(), clock: fixedClock(NOW) };
    const issued = await issueState(deps, binding, false);
    expect(issued).not.toHaveProperty('codeChallenge');
    const redeemed = await redeemState(deps, issued.state);
    expect(redeemed?.pending.platform).toBe('twitter');
    expect(redeemed).not.toHaveProperty('codeVerifier');
  });
});
