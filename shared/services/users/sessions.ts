import type { User } from '../../domain/users.js';
import type { NewSession, SignedIn } from './dashboard-auth.js';
import type { UsersDeps } from './deps.js';
import { looksLikeToken, newSecretToken, sha256Hex } from './secrets.js';

/** How long a session lasts without signing in again (the cookie's Max-Age and the store's TTL). */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

/** A new session for `user` under their current epoch: the cookie value exists only in the answer. */
export async function issueSession(
  deps: Pick<UsersDeps, 'users' | 'clock'>,
  user: User,
): Promise<NewSession> {
  const now = deps.clock.now();
  const sessionToken = newSecretToken();
  const session = {
    sessionHash: sha256Hex(sessionToken),
    tenantId: user.tenantId,
    userId: user.userId,
    csrfToken: newSecretToken(),
    sessionEpoch: user.sessionEpoch,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + SESSION_TTL_SECONDS * 1000).toISOString(),
  };
  await deps.users.putSession(session);
  return { sessionToken, session };
}

/**
 * The signed-in user behind a cookie: only while the session has not expired, was issued under
 * the user's current epoch (a password change since ends it) and the tenant still exists.
 */
export async function resolveSession(
  deps: Pick<UsersDeps, 'users' | 'tenancy' | 'clock'>,
  sessionToken: string,
): Promise<SignedIn | undefined> {
  if (!looksLikeToken(sessionToken)) return undefined;
  const session = await deps.users.getSession(sha256Hex(sessionToken));
  if (!session || Date.parse(session.expiresAt) <= deps.clock.now()) return undefined;
  const [user, tenant] = await Promise.all([
    deps.users.getUser(session.tenantId, session.userId),
    deps.tenancy.getTenant(session.tenantId),
  ]);
  if (!user || !tenant || user.sessionEpoch !== session.sessionEpoch) return undefined;
  return { user, tenant, session };
}

export async function signOut(deps: Pick<UsersDeps, 'users'>, sessionToken: string): Promise<void> {
  if (!looksLikeToken(sessionToken)) return;
  await deps.users.deleteSession(sha256Hex(sessionToken));
}
