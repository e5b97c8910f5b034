import type { Workspace } from '../domain/tenancy.js';
import type { Logger } from '../ports/logger.js';
import type { UserStore } from '../ports/user-store.js';
import type { ServiceDeps } from '../runtime/deps.js';
import type { Admin } from '../services/admin.js';
import type { DashboardAuth, SignedIn } from '../services/users/dashboard-auth.js';

/** Everything the dashboard uses: the API's own deps and use cases, plus its people. */
export interface DashboardDeps {
  /** The operations' deps: dashboard actions on posts, accounts and webhooks run the operations. */
  services: ServiceDeps;
  /** The admin CLI's use cases: workspaces, agents, keys, policies. */
  admin: Admin;
  auth: DashboardAuth;
  users: UserStore;
  /**
   * Whether cookies carry `Secure`: true wherever the dashboard is served over HTTPS (every
   * deployment); false only on the local host over plain http.
   */
  secureCookies: boolean;
  /**
   * The media storage's origin (`mediaStorageOrigin`): the composer's script PUTs files straight
   * to presigned URLs there, so the Content-Security-Policy's `connect-src` names it. Absent: no
   * storage, and `connect-src` stays `'self'`.
   */
  mediaStorageOrigin?: string;
  logger: Logger;
}

/** Hono's per-request variables of the dashboard. */
export interface DashboardVariables {
  deps: DashboardDeps;
  requestId: string;
  logger: Logger;
  /** Set by the session middleware on every page behind sign-in. */
  signedIn: SignedIn;
  /** The token every form of this response carries (the session's, or the pre-session cookie's). */
  csrfToken: string;
  /** Set by the workspace guard on `/workspaces/:workspaceId/…`: one the user may see. */
  workspace: Workspace;
}

/** What the Lambda handler hands the app beside the request: what the event says of the caller. */
export interface DashboardBindings {
  /** The client's address as API Gateway saw it (never a header the client could write). */
  sourceIp: string;
}

export interface DashboardEnv {
  Bindings: DashboardBindings;
  Variables: DashboardVariables;
}

/** Where the dashboard is mounted, on the HTTP API and on the local host. */
export const DASHBOARD_BASE = '/dashboard';
