import type { Workspace } from '../domain/tenancy.js';
import type { Logger } from '../ports/logger.js';
import type { UserStore } from '../ports/user-store.js';
import type { ServiceDeps } from '../runtime/deps.js';
import type { Admin } from '../services/admin.js';
import type { DashboardAuth, SignedIn } from '../services/users/dashboard-auth.js';

/**
 * What the dashboard has from its cold start: enough for the sign-in page, the assets, the
 * redirects to sign in and the error pages, none of which touches a store.
 */
export interface DashboardSettings {
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

/** Everything the dashboard uses: the API's own deps and use cases, plus its people. */
export interface DashboardDeps extends DashboardSettings {
  /** The operations' deps: dashboard actions on posts, accounts and webhooks run the operations. */
  services: ServiceDeps;
  /** The admin CLI's use cases: workspaces, agents, keys, policies. */
  admin: Admin;
  auth: DashboardAuth;
  users: UserStore;
}

/**
 * The Lambda's start (functions/dashboard.ts): the settings, and how to build the deps, which
 * import the DynamoDB client and the rest. The app builds them once, on the first request that
 * needs them (deps-on-demand.ts): a form posted to sign in, a one-time link, a session cookie.
 */
export interface DashboardStart extends DashboardSettings {
  loadDeps: () => Promise<DashboardDeps>;
}

/** What the app is made from: the deps already built (the local host), or the Lambda's start. */
export type DashboardInput = DashboardDeps | DashboardStart;

/** Hono's per-request variables of the dashboard. */
export interface DashboardVariables {
  settings: DashboardSettings;
  /** The deps, built on the first call and then the same (deps-on-demand.ts). */
  loadDeps: () => Promise<DashboardDeps>;
  /**
   * Set once a request needs them: by the session middleware on a session cookie, before the
   * public forms that sign in, and on every page behind sign-in (deps-on-demand.ts).
   */
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
