import type { User } from '../../domain/users.js';
import type { IssuedLink } from './dashboard-auth.js';
import type { UsersDeps } from './deps.js';
import { newSecretToken, sha256Hex } from './secrets.js';

/** How long an invitation's link works. */
export const INVITE_LINK_TTL_SECONDS = 7 * 24 * 60 * 60;
/** How long the owner's first link (printed by the admin CLI's bootstrap) works. */
export const OWNER_LINK_TTL_SECONDS = 24 * 60 * 60;

/** Where a one-time link points, below the dashboard (`<base>/dashboard` + this). */
export const welcomePath = (token: string) => `/dashboard/welcome/${token}`;

/**
 * A set-password link for `user`, revoking every earlier one (the user's link epoch moves on
 * first, and the new link carries the new epoch): only the newest link a person was given works.
 * Only its hash is stored; the token is in the answer only.
 */
export async function issueSetPasswordLink(
  deps: Pick<UsersDeps, 'users' | 'clock'>,
  user: User,
  ttlSeconds: number,
): Promise<IssuedLink> {
  const now = deps.clock.now();
  const token = newSecretToken();
  const linkEpoch = await deps.users.revokeSetPasswordLinks(user.tenantId, user.userId);
  const expiresAt = new Date(now + ttlSeconds * 1000).toISOString();
  await deps.users.putOneTimeToken({
    tokenHash: sha256Hex(token),
    tenantId: user.tenantId,
    userId: user.userId,
    purpose: 'set_password',
    linkEpoch,
    createdAt: new Date(now).toISOString(),
    expiresAt,
  });
  return { user, token, expiresAt };
}
