import type { AppCredentials } from '../../ports/app-credentials.js';
import {
  type AuthorizationUrlRequest,
  type CodeExchange,
  GrantRefusedError,
  type OAuthProvider,
  OAuthUnavailableError,
  type TokenSet,
} from '../../ports/network-oauth.js';
import { requireAppCredentials } from './app-credentials.js';
import type { AuthorizationCodeDeclaration, GrantType } from './authorization-code-declaration.js';
import { authorizationUrl } from './authorization-url.js';
import {
  type ClientAuthentication,
  clientAuthentication,
  NO_CLIENT_AUTHENTICATION,
} from './client-authentication.js';
import type { OAuthClientDeps } from './client-deps.js';
import { oauthErrorCode } from './error-answer.js';
import { readGrantAnswer } from './grant-answer.js';
import { scopesToAsk } from './scopes-to-ask.js';
import { postForm } from './token-request.js';
import { readOAuthJson } from './unreachable.js';

/**
 * The OAuth block every network's OAuth is made with: RFC 6749's authorization code flow (with
 * RFC 7636 PKCE, RFC 7009 revocation) as form posts through networkFetch, where a network declares
 * only what differs (its AuthorizationCodeDeclaration). What becomes of a request is said in the
 * port's terms: GrantRefusedError where the grant is dead, OAuthUnavailableError for everything
 * else, never with the network's error description; no secret is logged.
 */
export function makeAuthorizationCodeOAuth(
  declaration: AuthorizationCodeDeclaration,
  deps: OAuthClientDeps,
): OAuthProvider {
  const now = deps.now ?? Date.now;
  const { network, token } = declaration;
  const idParameter = declaration.clientIdParameter ?? 'client_id';
  const headers = { Accept: 'application/json', ...declaration.headers };

  /** A form post to the token or revoke endpoint, the app authenticated as `client` says. */
  const post = (
    url: string,
    form: Record<string, string>,
    client: ClientAuthentication,
    signal: AbortSignal,
  ) =>
    postForm({
      url,
      form: { ...form, ...client.form },
      headers: { ...headers, ...client.headers },
      network,
      signal,
      fetch: deps.fetch,
    });

  // The credentials are read at each request, not once: they may be rotated.
  const app = (): Promise<AppCredentials> => requireAppCredentials(deps.appCredentials, network);

  const grant = async (
    grantType: GrantType,
    form: Record<string, string>,
    signal: AbortSignal,
    previous?: TokenSet,
  ): Promise<TokenSet> => {
    const credentials = await app();
    const client = clientAuthentication(credentials, token.clientAuthentication, idParameter);
    const response = await post(token.url, { grant_type: grantType, ...form }, client, signal);
    return readGrantAnswer(declaration, response, {
      grantType,
      app: credentials,
      issuedAt: now(),
      previous,
      signal,
    });
  };

  const refreshWithToken = async (tokens: TokenSet, signal: AbortSignal): Promise<TokenSet> => {
    if (!tokens.refreshToken) throw new GrantRefusedError('no_refresh_token');
    return grant('refresh_token', { refresh_token: tokens.refreshToken }, signal, tokens);
  };
  const refresh = declaration.refresh === undefined ? refreshWithToken : declaration.refresh;

  const { revoke } = declaration;
  const revokeGrant =
    revoke &&
    (async (tokens: TokenSet, signal: AbortSignal): Promise<void> => {
      const client = revoke.unauthenticated
        ? NO_CLIENT_AUTHENTICATION
        : clientAuthentication(await app(), token.clientAuthentication, idParameter);
      for (const value of revoke.tokens(tokens)) {
        const response = await post(revoke.url, { token: value }, client, signal);
        const error = await revocationError(response, token.errorsInOkAnswers === true, network);
        if (!response.ok || error) {
          throw new OAuthUnavailableError(
            `${network} refused the revocation (HTTP ${response.status}).`,
            error,
          );
        }
      }
    });

  return {
    usesPkce: declaration.usesPkce,
    scopes: declaration.scopes,
    ...(declaration.metricsOnlyScopes && { metricsOnlyScopes: declaration.metricsOnlyScopes }),
    ...(declaration.commentOnlyScopes && { commentOnlyScopes: declaration.commentOnlyScopes }),
    ...(declaration.optionOnlyScopes && { optionOnlyScopes: declaration.optionOnlyScopes }),

    authorizationUrl(request: AuthorizationUrlRequest): string {
      const { codeChallenge, ...standard } = request;
      return authorizationUrl(
        {
          url: declaration.authorize.url,
          scopes: scopesToAsk(declaration, request),
          scopeDelimiter: declaration.authorize.scopeDelimiter ?? ' ',
          clientIdParameter: idParameter,
          parameters: declaration.authorize.parameters ?? [],
        },
        declaration.usesPkce && codeChallenge ? { ...standard, codeChallenge } : standard,
      );
    },

    exchangeCode(exchange: CodeExchange, signal: AbortSignal): Promise<TokenSet> {
      const { code, redirectUri, codeVerifier } = exchange;
      return grant(
        'authorization_code',
        {
          code,
          redirect_uri: redirectUri,
          ...(declaration.usesPkce && codeVerifier && { code_verifier: codeVerifier }),
        },
        signal,
      );
    },

    ...(refresh && { refresh }),
    ...(revokeGrant && { revoke: revokeGrant }),
    readProfile: declaration.readProfile,
  };
}

/**
 * The OAuth error code of a revocation's answer below 500: a refusal's, or where the network
 * answers errors with 200 too, a success's. Other bodies are not needed and are let go.
 */
async function revocationError(
  response: Response,
  errorsInOkAnswers: boolean,
  network: string,
): Promise<string | undefined> {
  if (response.status < 500 && (!response.ok || errorsInOkAnswers)) {
    return oauthErrorCode(await readOAuthJson(response, network));
  }
  await response.body?.cancel();
  return undefined;
}
