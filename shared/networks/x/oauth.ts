import * as oauth from 'oauth4webapi';
import {
  type AuthorizationUrlRequest,
  type CodeExchange,
  GrantRefusedError,
  type NetworkProfile,
  type OAuthProvider,
  OAuthUnavailableError,
  type TokenSet,
} from '../../ports/network-oauth.js';
import { NoAnswerError, networkFetch, RequestNotSentError } from '../http/network-fetch.js';
import { requireAppCredentials } from '../oauth/app-credentials.js';
import { authorizationUrl } from '../oauth/authorization-url.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { tokenSetFromAnswer } from '../oauth/token-answer.js';
import { userAnswer } from './answers.js';
import { callX } from './api.js';

/**
 * What the service asks X for (twitter.md §3): reading and writing posts, reading the user,
 * uploading media, and `offline.access`, without which X gives no refresh token.
 */
export const X_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'] as const;

export interface XOAuthDeps extends OAuthClientDeps {
  /** X_API_URL: the token, revoke and profile endpoints are under it. */
  apiUrl: string;
  /** X_AUTHORIZE_URL: the consent page. */
  authorizeUrl: string;
}

/** X refuses a dead refresh token (or a stale code) with 400 invalid_request (twitter.md §3), others with invalid_grant. */
const REFUSED_GRANT_ERRORS = new Set(['invalid_grant', 'invalid_request']);

/**
 * X's OAuth 2.0 authorization code flow with PKCE (twitter.md §3), as a confidential client
 * (HTTP Basic with the app's id and secret). The grant requests are oauth4webapi's (X's token
 * endpoint is standard), sent through networkFetch so failures classify like every other call.
 * Refresh rotates: every refresh answers a new refresh token and the old one stops working.
 */
export function makeXOAuth(deps: XOAuthDeps): OAuthProvider {
  const now = deps.now ?? Date.now;
  const server: oauth.AuthorizationServer = {
    issuer: deps.apiUrl,
    authorization_endpoint: deps.authorizeUrl,
    token_endpoint: `${deps.apiUrl}/2/oauth2/token`,
    revocation_endpoint: `${deps.apiUrl}/2/oauth2/revoke`,
  };
  const insecure = new URL(deps.apiUrl).protocol === 'http:';

  const app = async () => {
    const credentials = await requireAppCredentials(deps.appCredentials, 'X');
    return {
      client: { client_id: credentials.clientId } satisfies oauth.Client,
      auth: oauth.ClientSecretBasic(credentials.clientSecret),
    };
  };

  const options = (signal: AbortSignal) => ({
    signal,
    [oauth.allowInsecureRequests]: insecure,
    [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<string, URLSearchParams>) =>
      networkFetch(
        url,
        { method: init.method, headers: init.headers, body: init.body, redirect: init.redirect, signal },
        deps.fetch,
      ),
  });

  // An answer without scopes is taken to grant what was asked for.
  const tokenSetOf = (answer: oauth.TokenEndpointResponse, previous?: TokenSet): TokenSet =>
    tokenSetFromAnswer(answer, { issuedAt: now(), previous, scopeSeparator: /\s+/, defaultScopes: X_SCOPES });

  return {
    usesPkce: true,
    scopes: X_SCOPES,

    authorizationUrl(request: AuthorizationUrlRequest): string {
      return authorizationUrl(deps.authorizeUrl, request, X_SCOPES);
    },

    async exchangeCode(exchange: CodeExchange, signal: AbortSignal): Promise<TokenSet> {
      const { client, auth } = await app();
      return grant(async () => {
        // The connect flow checked the state already; oauth4webapi wants the parameters it validated.
        const callback = oauth.validateAuthResponse(
          server,
          client,
          new URLSearchParams({ code: exchange.code }),
          oauth.skipStateCheck,
        );
        const response = await oauth.authorizationCodeGrantRequest(
          server,
          client,
          auth,
          callback,
          exchange.redirectUri,
          exchange.codeVerifier ?? oauth.nopkce,
          options(signal),
        );
        return tokenSetOf(await oauth.processAuthorizationCodeResponse(server, client, response));
      });
    },

    async refresh(tokens: TokenSet, signal: AbortSignal): Promise<TokenSet> {
      const { refreshToken } = tokens;
      if (!refreshToken) throw new GrantRefusedError('no_refresh_token');
      const { client, auth } = await app();
      return grant(async () => {
        const response = await oauth.refreshTokenGrantRequest(
          server,
          client,
          auth,
          refreshToken,
          options(signal),
        );
        return tokenSetOf(await oauth.processRefreshTokenResponse(server, client, response), tokens);
      });
    },

    async revoke(tokens: TokenSet, signal: AbortSignal): Promise<void> {
      const { client, auth } = await app();
      // The refresh token first: it is what keeps the grant alive.
      for (const token of [tokens.refreshToken, tokens.accessToken]) {
        if (!token) continue;
        await grant(async () => {
          const response = await oauth.revocationRequest(server, client, auth, token, options(signal));
          await oauth.processRevocationResponse(response);
        });
      }
    },

    async readProfile(accessToken: string, signal: AbortSignal): Promise<NetworkProfile> {
      const answer = await grant(() =>
        callX(
          { apiUrl: deps.apiUrl, accessToken, signal, ...(deps.fetch && { fetch: deps.fetch }) },
          { method: 'GET', path: '/2/users/me', query: { 'user.fields': 'profile_image_url' } },
        ),
      );
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
    },
  };
}

/**
 * Runs one grant request and says what became of it in the port's terms: a grant X refuses
 * (invalid_grant, invalid_request) is GrantRefusedError; anything else that goes wrong (X
 * unreachable, a 5xx, an answer oauth4webapi cannot read, a refused client) is
 * OAuthUnavailableError. X's error description is never passed on.
 */
async function grant<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GrantRefusedError || error instanceof OAuthUnavailableError) throw error;
    if (error instanceof oauth.ResponseBodyError) {
      if (error.status === 400 && REFUSED_GRANT_ERRORS.has(error.error))
        throw new GrantRefusedError(error.error);
      throw new OAuthUnavailableError(`X refused the request (${error.status} ${error.error}).`, error.error);
    }
    if (error instanceof RequestNotSentError || error instanceof NoAnswerError) {
      throw new OAuthUnavailableError('X could not be reached.', error.code);
    }
    if (error instanceof oauth.WWWAuthenticateChallengeError) {
      throw new OAuthUnavailableError(
        `X refused the app's credentials (${error.status}).`,
        String(error.status),
      );
    }
    throw new OAuthUnavailableError('X answered the grant request with something unreadable.');
  }
}
