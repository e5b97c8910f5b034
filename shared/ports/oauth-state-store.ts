import type { Platform } from '../domain/platforms.js';

/**
 * A connect waiting for the network to send the user back: what its `state` is bound to. Stored
 * under the SHA-256 of the state, never the state itself, and holding the PKCE verifier only
 * sealed with a key derived from the state (shared/services/accounts/oauth-state.ts): the table
 * alone can neither answer a callback nor redeem a code.
 */
export interface PendingConnect {
  /** SHA-256 of the state, hex. */
  stateHash: string;
  tenantId: string;
  workspaceId: string;
  /** The agent whose key started it: the callback checks it may still connect accounts there. */
  agentId: string;
  platform: Platform;
  /** The network app the connect asked through (its client id is in the authorization URL). */
  app?: string;
  /** Where to send the user back; absent: our own result page. */
  redirectUri?: string;
  /** The PKCE verifier, sealed; absent when the network does not use PKCE. */
  sealedVerifier?: string;
  createdAt: string;
  /** ISO 8601: after it the state is refused, whether or not the table's TTL has removed it yet. */
  expiresAt: string;
}

/** Pending connects: written once, taken once. */
export interface OAuthStateStore {
  /** Stores a new pending connect; never replaces one. */
  put(pending: PendingConnect): Promise<void>;
  /**
   * Removes the pending connect and returns it, in one step: of two callbacks with the same state
   * only one gets it. Undefined when there is none, or it had expired at `now` (removed all the same).
   */
  take(stateHash: string, now: number): Promise<PendingConnect | undefined>;
}
