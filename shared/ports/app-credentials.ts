/*
 * The apps a deployment holds client credentials for, and where they come from: a port, so the
 * use cases and networks that need credentials do not import the composition root's configuration.
 */

import { APP_IDS, type AppId } from '../networks/definitions.js';

/**
 * The apps' credentials come per network app, as each network's definition lists them
 * (shared/networks/<net>/definition.ts): Google's serves YouTube; LinkedIn has two kinds of app,
 * a member app and a Community Management app, which LinkedIn allows no other product beside.
 */
export const NETWORK_APPS = APP_IDS;
export type NetworkApp = AppId;

/** An app's OAuth client credentials. Secret: never logged, never returned. */
export interface AppCredentials {
  clientId: string;
  clientSecret: string;
  /**
   * Not a secret: the operator's word that the app is approved for the scopes its network asks
   * only for the metrics (TikTok's video.list and user.info.stats, Instagram's insights, the
   * LinkedIn Community Management app's analytics). False: the connect leaves them out, so an app
   * without them can still connect, and its accounts' metrics answer metrics_missing_scopes.
   * Absent: true, they are asked. `<APP>_ASK_METRICS_SCOPES` on the local host, the secret's
   * `askMetricsScopes` in AWS (docs/networks.md "Metrics scopes per app").
   */
  askMetricsScopes?: boolean;
  /**
   * Whether a connect asks the scopes only first comments need (docs/first-comment.md), for an
   * app approved for them. Absent: true. `<APP>_ASK_COMMENT_SCOPES` on the local host, the
   * secret's `askCommentScopes` in AWS.
   */
  askCommentScopes?: boolean;
  /**
   * Whether a connect asks the scopes only some platformOptions need (TikTok's `video.upload` for
   * inbox drafts), for an app approved for them. Absent: true. `<APP>_ASK_OPTION_SCOPES` on the
   * local host, the secret's `askOptionScopes` in AWS.
   */
  askOptionScopes?: boolean;
}

/**
 * Where the apps' credentials come from: `<APP>_CLIENT_ID` and `<APP>_CLIENT_SECRET` (and
 * `<APP>_ASK_METRICS_SCOPES`) on the local host; one Secrets Manager secret per app in AWS
 * (docs/deploy.md). Undefined for an app with
 * none: connecting its network answers 409 network_not_configured, its posts fail
 * connector_unavailable.
 */
export interface AppCredentialsSource {
  credentialsFor(app: NetworkApp): Promise<AppCredentials | undefined>;
}
