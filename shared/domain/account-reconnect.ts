import type { Account } from './tenancy.js';

/**
 * How far ahead a coming end of a token counts as trouble now: a week's notice lets a caller ask
 * the person to reconnect before a post fails.
 */
export const RECONNECT_NOTICE_MS = 7 * 24 * 60 * 60 * 1000;

const before = (at: string | undefined, limit: number) => at !== undefined && Date.parse(at) < limit;

/**
 * Whether the account needs the person to connect it again (docs/networks.md "needsReconnect"):
 * - it is disconnected (the network refused a refresh, the token was revoked, or it was disconnected
 *   through the API);
 * - a real network's account holds no tokens;
 * - its access token ends within RECONNECT_NOTICE_MS (or has ended) and there is no refresh token to
 *   renew it;
 * - its refresh token itself ends within RECONNECT_NOTICE_MS (or has ended).
 * Sandbox accounts need none while connected. An access token that a refresh token renews does not
 * count: the service refreshes it before use and in its daily sweep.
 */
export function needsReconnect(account: Account, now: number): boolean {
  if (account.status !== 'connected') return true;
  if (account.sandbox) return false;
  if (!account.encryptedTokens) return true;
  const soon = now + RECONNECT_NOTICE_MS;
  if (!account.refreshable && before(account.tokenExpiresAt, soon)) return true;
  return account.refreshable === true && before(account.refreshExpiresAt, soon);
}
