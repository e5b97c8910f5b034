import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { calculatePKCECodeChallenge, generateRandomCodeVerifier, generateRandomState } from 'oauth4webapi';
import type { Platform } from '../../domain/platforms.js';
import type { Clock } from '../../ports/clock.js';
import type { OAuthStateStore, PendingConnect } from '../../ports/oauth-state-store.js';

/** How long a connect waits for the network to send the user back. */
export const STATE_LIFETIME_MS = 10 * 60 * 1000;

/** What a state is bound to. */
export interface StateBinding {
  tenantId: string;
  workspaceId: string;
  agentId: string;
  platform: Platform;
  /** The network app asked through: the code is exchanged with the same app's client. */
  app?: string;
  redirectUri?: string;
}

export function hashState(state: string): string {
  return createHash('sha256').update(state, 'utf8').digest('hex');
}

/**
 * The verifier is sealed with AES-256-GCM under a key derived from the state itself, bound to the
 * state's hash: only a caller holding the state (the browser coming back) can open it, so a copy of
 * the table is not enough to redeem an intercepted code.
 */
function verifierKey(state: string): Buffer {
  return Buffer.from(hkdfSync('sha256', state, 'smcp-oauth-state', 'pkce-verifier', 32));
}

function sealVerifier(state: string, stateHash: string, verifier: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', verifierKey(state), iv);
  cipher.setAAD(Buffer.from(stateHash, 'utf8'));
  const sealed = Buffer.concat([cipher.update(verifier, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, sealed, cipher.getAuthTag()].map((part) => part.toString('base64url'))].join('.');
}

function openVerifier(state: string, stateHash: string, sealed: string): string | undefined {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !body || !tag) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', verifierKey(state), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(stateHash, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return undefined;
  }
}

export interface IssuedState {
  /** Goes into the authorization URL; the only copy we ever hand out. */
  state: string;
  /** S256 challenge of the verifier, when the network uses PKCE. */
  codeChallenge?: string;
  expiresAt: string;
}

/** A new single-use state for a connect, stored with what it is bound to. */
export async function issueState(
  deps: { oauthStates: OAuthStateStore; clock: Clock },
  binding: StateBinding,
  usesPkce: boolean,
): Promise<IssuedState> {
  const state = generateRandomState();
  const stateHash = hashState(state);
  const now = deps.clock.now();
  const expiresAt = new Date(now + STATE_LIFETIME_MS).toISOString();
  const verifier = usesPkce ? generateRandomCodeVerifier() : undefined;
  await deps.oauthStates.put({
    stateHash,
    ...binding,
    ...(verifier && { sealedVerifier: sealVerifier(state, stateHash, verifier) }),
    createdAt: new Date(now).toISOString(),
    expiresAt,
  });
  return {
    state,
    ...(verifier && { codeChallenge: await calculatePKCECodeChallenge(verifier) }),
    expiresAt,
  };
}

export interface RedeemedState {
  pending: PendingConnect;
  codeVerifier?: string;
}

/**
 * The pending connect of a state coming back, consumed: undefined when it is unknown, expired or
 * already used (a replayed callback), or its verifier does not open with it.
 */
export async function redeemState(
  deps: { oauthStates: OAuthStateStore; clock: Clock },
  state: string,
): Promise<RedeemedState | undefined> {
  const stateHash = hashState(state);
  const pending = await deps.oauthStates.take(stateHash, deps.clock.now());
  if (!pending) return undefined;
  if (!pending.sealedVerifier) return { pending };
  const codeVerifier = openVerifier(state, stateHash, pending.sealedVerifier);
  return codeVerifier === undefined ? undefined : { pending, codeVerifier };
}
