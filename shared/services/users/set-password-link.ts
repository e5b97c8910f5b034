import { InvalidRequestError } from '../../domain/errors.js';
import { linkIsCurrent, type User, type UserView, userView } from '../../domain/users.js';
import type { NewSession } from './dashboard-auth.js';
import type { UsersDeps } from './deps.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { looksLikeToken, sha256Hex } from './secrets.js';
import { issueSession } from './sessions.js';

/**
 * The user a set-password link is for, without using it up; undefined when unknown, expired or
 * revoked (a newer link, a used link or a password change since).
 */
export async function peekSetPasswordLink(deps: UsersDeps, token: string): Promise<UserView | undefined> {
  if (!looksLikeToken(token)) return undefined;
  const stored = await deps.users.getOneTimeToken(sha256Hex(token));
  if (!stored || Date.parse(stored.expiresAt) <= deps.clock.now()) return undefined;
  const user = await deps.users.getUser(stored.tenantId, stored.userId);
  return user && linkIsCurrent(stored, user) ? userView(user) : undefined;
}

/**
 * Uses the link up (once: the store gives a token to one caller), sets the password (ending any
 * session the user had, and revoking every other link) and signs them in, unless a newer link,
 * a used link or a password change has revoked it: the store checks that in the password's own
 * write. A weak password is refused before the link is used.
 */
export async function setPasswordWithLink(
  deps: UsersDeps,
  token: string,
  password: string,
): Promise<({ user: User } & NewSession) | undefined> {
  const problem = passwordProblem(password);
  if (problem) throw new InvalidRequestError(problem, { password: [problem] });
  if (!looksLikeToken(token)) return undefined;
  const taken = await deps.users.takeOneTimeToken(sha256Hex(token));
  if (!taken || Date.parse(taken.expiresAt) <= deps.clock.now()) return undefined;
  const user = await deps.users.setPasswordWithLink(
    taken.tenantId,
    taken.userId,
    await hashPassword(password),
    taken.linkEpoch ?? 0,
  );
  if (!user) return undefined;
  deps.logger.info('dashboard: password set with a one-time link', {
    tenantId: user.tenantId,
    userId: user.userId,
  });
  return { user, ...(await issueSession(deps, user)) };
}
