import type { OAuthStateStore, PendingConnect } from '../../../shared/ports/oauth-state-store.js';

/** The OAuthStateStore contract over a Map: taken once, refused once expired. */
export class InMemoryOAuthStateStore implements OAuthStateStore {
  private readonly pending = new Map<string, PendingConnect>();

  async put(pending: PendingConnect): Promise<void> {
    if (this.pending.has(pending.stateHash)) throw new Error('A pending connect with this state exists.');
    this.pending.set(pending.stateHash, structuredClone(pending));
  }

  async take(stateHash: string, now: number): Promise<PendingConnect | undefined> {
    const pending = this.pending.get(stateHash);
    this.pending.delete(stateHash);
    if (!pending || Date.parse(pending.expiresAt) <= now) return undefined;
    return pending;
  }
}
