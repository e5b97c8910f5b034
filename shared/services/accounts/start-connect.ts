import {
  InvalidRequestError,
  NetworkNotConfiguredError,
  ServiceUnavailableError,
} from '../../domain/errors.js';
import { isAllowedRedirect, redirectTarget, redirectUriProblems } from '../../domain/oauth-redirect.js';
import type { Platform } from '../../domain/platforms.js';
import type { Principal } from '../../domain/tenancy.js';
import { appClientsOf } from '../../networks/app-choice.js';
import type { Network, NetworkAppClient } from '../../networks/network.js';
import type { Networks } from '../../networks/registry.js';
import type { AppCredentials, AppCredentialsSource, NetworkApp } from '../../ports/app-credentials.js';
import type { Clock } from '../../ports/clock.js';
import type { AuthorizationUrlRequest, OAuthProvider } from '../../ports/network-oauth.js';
import type { OAuthStateStore } from '../../ports/oauth-state-store.js';
import type { TenantStore } from '../../ports/tenant-store.js';
import type { WorkspaceStore } from '../../ports/workspace-store.js';
import { callbackUrl } from './callback-url.js';
import { issueState } from './oauth-state.js';

export interface StartConnectDeps {
  /** The tenant's and the workspace's redirect allow-lists. */
  tenancy: TenantStore & WorkspaceStore;
  networks: Networks;
  appCredentials: AppCredentialsSource;
  /** Where the network sends the person back (the callback); absent: connect answers 503. */
  publicBaseUrl?: string;
  /** Loopback http redirect URIs are allowed on the local host only. */
  oauthRedirects: { allowLoopbackHttp: boolean };
  oauthStates: OAuthStateStore;
  clock: Clock;
}

export interface ConnectStart {
  authorizeUrl: string;
  expiresAt: string;
}

const NOT_ALLOWED =
  'Not on the allow-list of this tenant or workspace: the operator adds it with the admin CLI (set-redirect-uris).';

/**
 * 400 unless `redirectUri` has the required shape and is on the tenant's or the workspace's list;
 * the URL the browser will be sent to (the one checked, normalised).
 */
async function checkRedirectUri(
  deps: StartConnectDeps,
  principal: Principal,
  workspaceId: string,
  redirectUri: string,
): Promise<string> {
  const problems = redirectUriProblems(redirectUri, deps.oauthRedirects);
  if (problems.length > 0)
    throw new InvalidRequestError('The redirectUri is not allowed.', { redirectUri: problems });
  // The tenant is read afresh: a list just changed by the operator applies at once.
  const [tenant, workspace] = await Promise.all([
    deps.tenancy.getTenant(principal.tenant.tenantId),
    deps.tenancy.getWorkspace(principal.tenant.tenantId, workspaceId),
  ]);
  const allowList = [...(tenant?.oauthRedirectUris ?? []), ...(workspace?.oauthRedirectUris ?? [])];
  const target = redirectTarget(redirectUri);
  if (!target || !isAllowedRedirect(target, allowList))
    throw new InvalidRequestError('The redirectUri is not allowed.', { redirectUri: [NOT_ALLOWED] });
  return target;
}

export interface ConnectRequest {
  principal: Principal;
  workspaceId: string;
  platform: Platform;
  /**
   * Which of the network's apps to connect through (LinkedIn: LINKEDIN or LINKEDIN_COMMUNITY);
   * absent: the first of its apps the deployment has credentials for, its default app first.
   */
  app?: NetworkApp;
  /** A caller's return address: checked against its shape rules and the allow-list. */
  redirectUri?: string;
  /**
   * A return address the service itself chose (the dashboard's own accounts page): used as is,
   * without the allow-list, which lists callers' addresses. Only internal callers set it; the API
   * operation's body cannot reach it.
   */
  trustedRedirectUri?: string;
}

/**
 * The app to connect through and its credentials: the one asked for, or else the first of the
 * network's apps that has credentials (its default app first). Undefined when that app (or every
 * app) has none: the connect answers 409 network_not_configured.
 */
async function chooseApp(
  deps: StartConnectDeps,
  network: Network,
  requested: NetworkApp | undefined,
): Promise<{ client: NetworkAppClient; credentials: AppCredentials } | undefined> {
  const candidates = appClientsOf(network).filter(
    (client) => requested === undefined || client.app === requested,
  );
  for (const client of candidates) {
    const credentials = await deps.appCredentials.credentialsFor(client.app);
    if (credentials) return { client, credentials };
  }
  return undefined;
}

/**
 * The first step of connecting an account (docs/networks.md "Connecting accounts"): checks the
 * redirect URI, that the deployment knows its own address and has the network's app, then issues a
 * single-use state and answers the network's authorization URL, where the person consents.
 */
export async function startConnect(deps: StartConnectDeps, request: ConnectRequest): Promise<ConnectStart> {
  const { principal, workspaceId, platform } = request;
  const checked =
    request.redirectUri === undefined
      ? undefined
      : await checkRedirectUri(deps, principal, workspaceId, request.redirectUri);
  const redirectUri = request.trustedRedirectUri ?? checked;
  if (!deps.publicBaseUrl) {
    throw new ServiceUnavailableError(
      'Connecting accounts needs the public address of this deployment (PUBLIC_BASE_URL), which is not set.',
    );
  }
  const network = deps.networks.get(platform);
  const chosen = network && (await chooseApp(deps, network, request.app));
  if (!chosen) throw new NetworkNotConfiguredError(platform);
  const { client, credentials } = chosen;
  const issued = await issueState(
    deps,
    {
      tenantId: principal.tenant.tenantId,
      workspaceId,
      agentId: principal.agent.agentId,
      platform,
      app: client.app,
      ...(redirectUri !== undefined && { redirectUri }),
    },
    client.oauth.usesPkce,
  );
  const authorization = {
    clientId: credentials.clientId,
    state: issued.state,
    redirectUri: callbackUrl(deps.publicBaseUrl, platform),
    ...(issued.codeChallenge && { codeChallenge: issued.codeChallenge }),
    // The operator's word that this app lacks its metrics-only scopes: they are not asked.
    ...(credentials.askMetricsScopes === false && { askMetricsScopes: false }),
    ...(credentials.askCommentScopes === false && { askCommentScopes: false }),
    ...(credentials.askOptionScopes === false && { askOptionScopes: false }),
  };
  const authorizeUrl = client.oauth.pushedAuthorizationUrl
    ? await pushed(client.oauth.pushedAuthorizationUrl.bind(client.oauth), authorization)
    : client.oauth.authorizationUrl(authorization);
  return { authorizeUrl, expiresAt: issued.expiresAt };
}

/** How long the connect waits for a network's pushed authorization request (it holds the caller's request). */
const PUSH_TIMEOUT_MS = 10_000;

/** The consent URL after the push; a network that cannot take it now answers 503 (try again). */
async function pushed(
  push: NonNullable<OAuthProvider['pushedAuthorizationUrl']>,
  request: AuthorizationUrlRequest,
): Promise<string> {
  try {
    return await push(request, AbortSignal.timeout(PUSH_TIMEOUT_MS));
  } catch {
    // Its cause (unreachable, refused) is the network's; the caller can only try again.
    throw new ServiceUnavailableError('The network did not take the authorization request; try again.', 5);
  }
}
