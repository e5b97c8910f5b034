/**
 * People who sign in to the dashboard (interface 1.2, 5.3–5.4). They are not API callers: an API
 * key belongs to an agent, never to a user.
 * - owner: everything in the tenant, including inviting users; created by the admin CLI's bootstrap.
 * - super_admin: everything in the tenant; the only role that may give an agent scope `all`.
 * - workspace_admin: administers the workspaces in `workspaceIds`, sees no other.
 * - viewer: reads the workspaces in `workspaceIds`, changes nothing.
 */
export const USER_ROLES = ['owner', 'super_admin', 'workspace_admin', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface User {
  /** `usr_…`. */
  userId: string;
  tenantId: string;
  /** Lower-case; unique across the deployment (sign-in names no tenant). */
  email: string;
  role: UserRole;
  /** The workspaces of a workspace_admin or viewer; empty for owner and super_admin (they see all). */
  workspaceIds: string[];
  /** scrypt, self-describing (shared/services/users/passwords.ts); absent until the user sets one. */
  passwordHash?: string;
  /**
   * Bumped by every password change: a session remembers the epoch it was issued under, and one
   * from an older epoch is no longer valid, so a password change ends every other session.
   */
  sessionEpoch: number;
  /**
   * Bumped by every new set-password link and every password change (absent: 0): a link remembers
   * the epoch it was issued under and works only while that is still the user's, so a newer link,
   * a used link or a changed password revokes every earlier link.
   */
  linkEpoch?: number;
  createdAt: string;
  /** Who invited them; absent for the owner made by bootstrap. */
  invitedBy?: string;
}

/** A signed-in browser. Stored under the SHA-256 of its cookie value: the table never holds the cookie. */
export interface DashboardSession {
  sessionHash: string;
  tenantId: string;
  userId: string;
  /** Every form of this session carries it; a POST without it is refused. */
  csrfToken: string;
  sessionEpoch: number;
  createdAt: string;
  /** ISO 8601; the store also sets the table's TTL from it. */
  expiresAt: string;
}

/** A one-time link's token (set the first password, accept an invite), stored by its SHA-256. */
export interface OneTimeToken {
  tokenHash: string;
  tenantId: string;
  userId: string;
  purpose: 'set_password';
  /** The user's `linkEpoch` when the link was issued; absent (0) on links issued before epochs. */
  linkEpoch?: number;
  createdAt: string;
  expiresAt: string;
}

/** Whether a link is still its user's newest: no newer link, used link or password change since. */
export const linkIsCurrent = (token: OneTimeToken, user: User): boolean =>
  (token.linkEpoch ?? 0) === (user.linkEpoch ?? 0);

/** What a user may see of themselves and others: never the password hash. */
export type UserView = Omit<User, 'passwordHash'>;

export function userView({ passwordHash: _hash, ...rest }: User): UserView {
  return rest;
}
