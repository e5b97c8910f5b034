import { type NetworkProfile, type OAuthProvider, OAuthUnavailableError } from '../../ports/network-oauth.js';
import { makeAuthorizationCodeOAuth } from '../oauth/authorization-code.js';
import type { GrantError } from '../oauth/authorization-code-declaration.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { unavailableWhenUnreachable } from '../oauth/unreachable.js';
import { userAnswer } from './answers.js';
import { callX } from './api.js';

/**
 * What the service asks X for (twitter.md §3): reading and writing posts, reading the user,
 * uploading media, and `offline.access`, without which X gives no refresh token. `tweet.read` and
 * `users.read` are also all the metrics need (metrics-fields.ts X_METRICS_SCOPES): X has no
 * separate analytics scope for public metrics, so the list is the same with them.
 */
export const X_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'] as const;

export interface XOAuthDeps extends OAuthClientDeps {
  /** X_API_URL: the token, revoke and profile endpoints are under it. */
  apiUrl: string;
  /** X_AUTHORIZE_URL: the consent page. */
  authorizeUrl: string;
}

const NETWORK = 'X';

/** X refuses a dead refresh token (or a stale code) with 400 invalid_request (twitter.md §3), others with invalid_grant. */
const REFUSED_GRANT_ERRORS = new Set(['invalid_grant', 'invalid_request']);

const refusesGrant = (error: GrantError): boolean =>
  error.status === 400 && REFUSED_GRANT_ERRORS.has(error.error);

/**
 * X's OAuth 2.0 authorization code flow with PKCE (twitter.md §3), as a confidential client
 * (HTTP Basic with the app's id and secret). Refresh rotates: every refresh answers a new refresh
 * token and the old one stops working.
 */
export function makeXOAuth(deps: XOAuthDeps): OAuthProvider {
  return makeAuthorizationCodeOAuth(
    {
      network: NETWORK,
      scopes: X_SCOPES,
      usesPkce: true,
      authorize: { url: deps.authorizeUrl },
      token: {
        url: `${deps.apiUrl}/2/oauth2/token`,
        clientAuthentication: 'basic',
        // An answer without scopes is taken to grant what was asked for.
        withoutScope: 'asked',
        refusesGrant,
      },
      revoke: {
        url: `${deps.apiUrl}/2/oauth2/revoke`,
        // The refresh token first: it is what keeps the grant alive.
        tokens: (tokens) =>
          [tokens.refreshToken, tokens.accessToken].filter((token): token is string => Boolean(token)),
      },
      readProfile: (accessToken, signal) => readXProfile(deps, accessToken, signal),
    },
    deps,
  );
}

async function readXProfile(
  deps: XOAuthDeps,
  accessToken: string,
  signal: AbortSignal,
): Promise<NetworkProfile> {
  let answer: Awaited<ReturnType<typeof callX>>;
  try {
    answer = await callX(
      { apiUrl: deps.apiUrl, accessToken, signal, ...(deps.fetch && { fetch: deps.fetch }) },
      { method: 'GET', path: '/2/users/me', query: { 'user.fields': 'profile_image_url' } },
    );
  } catch (error) {
    throw unavailableWhenUnreachable(error, NETWORK);
  }
  const parsed = userAnswer.safeParse(answer.body);
  if (!answer.ok || !parsed.success) {
    throw new OAuthUnavailableError('X did not answer the profile read usably.', String(answer.status));
  }
  const { id, username, name, profile_image_url } = parsed.data.data;
  return {
    networkUserId: id,
    handle: `@${username}`,
    displayName: name || username,
    ...(profile_image_url && { avatarUrl: profile_image_url }),
  };
}
