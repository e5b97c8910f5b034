import type { Tenant } from '../../domain/tenancy.js';
import type { DashboardSession, User, UserRole, UserView } from '../../domain/users.js';

/** A browser's session and who it belongs to, as every dashboard page sees it. */
export interface SignedIn {
  user: User;
  tenant: Tenant;
  session: DashboardSession;
}

/** A session just issued: the cookie value exists only here and in the browser. */
export interface NewSession {
  sessionToken: string;
  session: DashboardSession;
}

export type SignInOutcome =
  | ({ kind: 'signed_in'; user: User } & NewSession)
  /** Unknown email, no password set yet, or a wrong password: the page never says which. */
  | { kind: 'refused' }
  /** Too many failures for this email or this address lately. */
  | { kind: 'throttled'; retryAfterSeconds: number };

/** A one-time link just issued: the token exists only here and in the link shown once. */
export interface IssuedLink {
  user: User;
  token: string;
  expiresAt: string;
}

/**
 * The dashboard's people use cases (shared/services/users/): sign-in, sessions, passwords and
 * invitations. Implemented by makeDashboardAuth; the dashboard's pages and the admin CLI call it.
 */
export interface DashboardAuth {
  signIn(input: { email: string; password: string; sourceIp: string }): Promise<SignInOutcome>;
  /** The signed-in user behind a session cookie; undefined when unknown, expired or ended. */
  resolveSession(sessionToken: string): Promise<SignedIn | undefined>;
  signOut(sessionToken: string): Promise<void>;
  /**
   * InvalidRequestError (fields `currentPassword`, `newPassword`) when the current password is
   * wrong or the new one too weak. Ends every session of the user; answers a new one for this browser.
   */
  changePassword(user: User, input: { currentPassword: string; newPassword: string }): Promise<NewSession>;
  /**
   * Owner or super-admin only (PermissionDeniedError); ConflictError when the email is a user's
   * already; InvalidRequestError for a bad email, role or workspace. The link's token is shown once.
   */
  inviteUser(by: User, input: { email: string; role: UserRole; workspaceIds: string[] }): Promise<IssuedLink>;
  /** The user a set-password link is for, without using it up; undefined when unknown or expired. */
  peekSetPasswordLink(token: string): Promise<UserView | undefined>;
  /**
   * Uses the link up, sets the password and signs the person in; undefined when the link is
   * unknown, expired or used. InvalidRequestError (field `password`) when the password is too weak
   * (the link is then not used up).
   */
  setPasswordWithLink(token: string, password: string): Promise<({ user: User } & NewSession) | undefined>;
  /** The tenant's users, for an owner or super-admin (PermissionDeniedError otherwise). */
  listUsers(by: User): Promise<UserView[]>;
}
