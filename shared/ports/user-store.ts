import type { DashboardSession, OneTimeToken, User } from '../domain/users.js';

/**
 * Dashboard users, their sessions, one-time links and sign-in throttling (DynamoDB; tenant-keyed
 * where the item belongs to a tenant). Secrets are stored only as hashes.
 */
export interface UserStore {
  /** ConflictError when the email is already a user's (in any tenant). */
  createUser(user: User): Promise<void>;
  getUser(tenantId: string, userId: string): Promise<User | undefined>;
  findUserByEmail(email: string): Promise<User | undefined>;
  listUsers(tenantId: string): Promise<User[]>;
  /**
   * Sets the password hash and bumps `sessionEpoch` (ending every session) and `linkEpoch`
   * (revoking every set-password link); the updated user.
   */
  setPassword(tenantId: string, userId: string, passwordHash: string): Promise<User>;
  /**
   * setPassword for a link issued under `linkEpoch`, only while that is still the user's epoch
   * (checked in the same write); undefined, and nothing written, when a newer link, a used link
   * or a password change has revoked it since.
   */
  setPasswordWithLink(
    tenantId: string,
    userId: string,
    passwordHash: string,
    linkEpoch: number,
  ): Promise<User | undefined>;
  /** Bumps the user's `linkEpoch`, revoking every set-password link; the new epoch, for the next link. */
  revokeSetPasswordLinks(tenantId: string, userId: string): Promise<number>;

  putSession(session: DashboardSession): Promise<void>;
  getSession(sessionHash: string): Promise<DashboardSession | undefined>;
  deleteSession(sessionHash: string): Promise<void>;

  putOneTimeToken(token: OneTimeToken): Promise<void>;
  /** The token without using it up (the page that asks for the password). */
  getOneTimeToken(tokenHash: string): Promise<OneTimeToken | undefined>;
  /** Deletes and returns it, once: a second take of the same token gets undefined. */
  takeOneTimeToken(tokenHash: string): Promise<OneTimeToken | undefined>;

  /** Counts one failed sign-in for `key` in the window starting at `windowStart`; the new count. */
  countSignInFailure(key: string, windowStart: string, expiresAt: string): Promise<number>;
  /** The failures counted for `key` in the window starting at `windowStart`. */
  signInFailures(key: string, windowStart: string): Promise<number>;
}
