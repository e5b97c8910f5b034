import * as z from 'zod';
import {
  type AuthorizationUrlRequest,
  type CodeExchange,
  GrantRefusedError,
  type NetworkProfile,
  type OAuthProvider,
  OAuthUnavailableError,
  type TokenSet,
} from '../../ports/network-oauth.js';
import type { AppCredentials } from '../../runtime/network-config.js';
import { networkFetch } from '../http/network-fetch.js';
import { requireAppCredentials } from '../oauth/app-credentials.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { readOAuthErrorCode } from '../oauth/error-answer.js';
import { StandardTokenAnswer, tokenSetFromAnswer } from '../oauth/token-answer.js';
import { postForm } from '../oauth/token-request.js';
import { readOAuthJson, unavailableWhenUnreachable } from '../oauth/unreachable.js';

/** Sign In with LinkedIn (OpenID Connect) and Share on LinkedIn: who the member is, and posting as them. */
export const LINKEDIN_MEMBER_SCOPES = ['openid', 'profile', 'email', 'w_member_social'] as const;
/**
 * Community Management: posting as a Page (`w_organization_social`), reading the Page's posts to
 * settle an unknown outcome (`r_organization_social`), and reading the member's roles on Pages
 * (`r_organization_admin`, for organizationAcls) so that a post names only a Page they may post for.
 */
export const LINKEDIN_ORGANIZATION_SCOPES = [
  'w_organization_social',
  'r_organization_social',
  'r_organization_admin',
] as const;
/**
 * Asked for together: LinkedIn grants all or nothing (networks/linkedin.md §6), so the app must
 * hold both products, and every account can post as the member and as the Pages it administers.
 */
export const LINKEDIN_SCOPES: readonly string[] = [
  ...LINKEDIN_MEMBER_SCOPES,
  ...LINKEDIN_ORGANIZATION_SCOPES,
];

export interface LinkedInOAuthDeps extends OAuthClientDeps {
  /** LINKEDIN_OAUTH_URL: `/authorization`, `/accessToken` and `/revoke` live under it. */
  oauthUrl: string;
  /** LINKEDIN_API_URL: the profile is `/v2/userinfo` there. */
  apiUrl: string;
}

/** How OAuthUnavailableError names the network (and its app). */
const NETWORK = 'LinkedIn';

// LinkedIn lists the granted scopes comma-separated (spaces are accepted too).
const TokenAnswer = StandardTokenAnswer.extend({
  refresh_token_expires_in: z.number().int().positive().optional(),
});

const UserInfo = z.object({
  sub: z.string().min(1),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  picture: z.string().optional(),
});

/**
 * LinkedIn's 3-legged OAuth (networks/linkedin.md §6). Not PKCE: LinkedIn's web flow authenticates
 * the app with its client secret in the token request's form. The grant requests are written here
 * rather than with oauth4webapi because LinkedIn's answers are not standard enough for it (comma-
 * separated scopes, `refresh_token_expires_in`, an ID token whose issuer is not the OAuth host).
 */
export function makeLinkedInOAuth(deps: LinkedInOAuthDeps): OAuthProvider {
  const now = deps.now ?? Date.now;

  const credentials = (): Promise<AppCredentials> => requireAppCredentials(deps.appCredentials, NETWORK);

  const post = (path: string, form: Record<string, string>, signal: AbortSignal): Promise<Response> =>
    postForm({
      url: `${deps.oauthUrl}${path}`,
      form,
      headers: { Accept: 'application/json' },
      network: NETWORK,
      signal,
      fetch: deps.fetch,
    });

  const tokenSet = async (response: Response, previous?: TokenSet): Promise<TokenSet> => {
    const parsed = TokenAnswer.safeParse(await readOAuthJson(response, NETWORK));
    if (!parsed.success) throw new OAuthUnavailableError('LinkedIn answered the token request unreadably.');
    // The refresh token's lifetime counts down from the first grant; an answer without it keeps the old.
    return tokenSetFromAnswer(parsed.data, {
      issuedAt: now(),
      previous,
      scopeSeparator: /[\s,]+/,
      defaultScopes: [],
      refreshLifetime: { expiresIn: parsed.data.refresh_token_expires_in },
    });
  };

  /** The OAuth error code of a refusal; undefined when the answer is not an OAuth error. */
  const oauthError = (response: Response): Promise<string | undefined> =>
    readOAuthErrorCode(response, NETWORK);

  return {
    usesPkce: false,
    scopes: LINKEDIN_SCOPES,

    authorizationUrl(request: AuthorizationUrlRequest): string {
      const url = new URL(`${deps.oauthUrl}/authorization`);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', request.clientId);
      url.searchParams.set('redirect_uri', request.redirectUri);
      url.searchParams.set('state', request.state);
      url.searchParams.set('scope', LINKEDIN_SCOPES.join(' '));
      return url.toString();
    },

    async exchangeCode(exchange: CodeExchange, signal: AbortSignal): Promise<TokenSet> {
      const app = await credentials();
      const response = await post(
        '/accessToken',
        {
          grant_type: 'authorization_code',
          code: exchange.code,
          redirect_uri: exchange.redirectUri,
          client_id: app.clientId,
          client_secret: app.clientSecret,
        },
        signal,
      );
      if (response.ok) return tokenSet(response);
      const error = response.status < 500 ? await oauthError(response) : undefined;
      // A code LinkedIn refuses (used, expired, for another redirect) cannot be tried again; our own
      // app being refused (invalid_client) is a configuration problem, not the member's.
      if (error && error !== 'invalid_client') throw new GrantRefusedError(error);
      throw new OAuthUnavailableError(`LinkedIn refused the code exchange (HTTP ${response.status}).`, error);
    },

    /**
     * Only apps approved for programmatic refresh get a refresh token; without one there is
     * nothing to refresh with, and the account must be reconnected before its token expires.
     */
    async refresh(tokens: TokenSet, signal: AbortSignal): Promise<TokenSet> {
      if (!tokens.refreshToken) throw new GrantRefusedError('no_refresh_token');
      const app = await credentials();
      const response = await post(
        '/accessToken',
        {
          grant_type: 'refresh_token',
          refresh_token: tokens.refreshToken,
          client_id: app.clientId,
          client_secret: app.clientSecret,
        },
        signal,
      );
      if (response.ok) return tokenSet(response, tokens);
      const error = response.status < 500 ? await oauthError(response) : undefined;
      if (error === 'invalid_grant') throw new GrantRefusedError(error);
      throw new OAuthUnavailableError(`LinkedIn refused the refresh (HTTP ${response.status}).`, error);
    },

    async revoke(tokens: TokenSet, signal: AbortSignal): Promise<void> {
      const app = await credentials();
      const response = await post(
        '/revoke',
        { token: tokens.accessToken, client_id: app.clientId, client_secret: app.clientSecret },
        signal,
      );
      if (!response.ok) {
        throw new OAuthUnavailableError(`LinkedIn refused the revocation (HTTP ${response.status}).`);
      }
    },

    /**
     * From the OpenID userinfo: `sub` is the member id (their URN is `urn:li:person:{sub}`).
     * LinkedIn has no @handle and the vanity name needs a restricted scope, so the handle is the
     * display name, as the port allows.
     */
    async readProfile(accessToken: string, signal: AbortSignal): Promise<NetworkProfile> {
      let response: Response;
      try {
        response = await networkFetch(
          `${deps.apiUrl}/v2/userinfo`,
          { headers: { Authorization: `Bearer ${accessToken}` }, signal },
          deps.fetch,
        );
      } catch (error) {
        throw unavailableWhenUnreachable(error, NETWORK);
      }
      if (!response.ok) {
        throw new OAuthUnavailableError(`LinkedIn refused the profile read (HTTP ${response.status}).`);
      }
      const parsed = UserInfo.safeParse(await readOAuthJson(response, NETWORK));
      if (!parsed.success) throw new OAuthUnavailableError('LinkedIn answered the profile read unreadably.');
      const info = parsed.data;
      const displayName =
        info.name ?? ([info.given_name, info.family_name].filter(Boolean).join(' ') || info.sub);
      return {
        networkUserId: info.sub,
        handle: displayName,
        displayName,
        ...(info.picture && { avatarUrl: info.picture }),
      };
    },
  };
}
