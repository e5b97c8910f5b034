import * as z from 'zod';
import type { LinkedInAppKind } from '../../domain/linkedin-apps.js';
import type { AppCredentials } from '../../ports/app-credentials.js';
import {
  type AuthorizationUrlRequest,
  type CodeExchange,
  GrantRefusedError,
  type NetworkProfile,
  type OAuthProvider,
  OAuthUnavailableError,
  type TokenSet,
} from '../../ports/network-oauth.js';
import { networkFetch } from '../http/network-fetch.js';
import { requireAppCredentials } from '../oauth/app-credentials.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { readOAuthErrorCode } from '../oauth/error-answer.js';
import { StandardTokenAnswer, tokenSetFromAnswer } from '../oauth/token-answer.js';
import { postForm } from '../oauth/token-request.js';
import { readOAuthJson, unavailableWhenUnreachable } from '../oauth/unreachable.js';

/**
 * A member app's products, Sign In with LinkedIn using OpenID Connect (`openid`, and `profile` for
 * the name and picture; `email` is not asked for: nothing uses it) and Share on LinkedIn
 * (`w_member_social`, posting as the member). The member is read from `/v2/userinfo`.
 */
export const LINKEDIN_MEMBER_SCOPES = ['openid', 'profile', 'w_member_social'] as const;
/**
 * A Community Management app's (the product LinkedIn allows nothing else beside): who the member
 * is (`r_basicprofile`, `/v2/me`: no `openid` on such an app), posting as the member
 * (`w_member_social`) and as a Page (`w_organization_social`), reading a Page's posts to settle an
 * unknown outcome (`r_organization_social`), and reading the member's Page roles on
 * organizationAcls (`rw_organization_admin`) so a post names only a Page they may post for.
 */
export const LINKEDIN_COMMUNITY_SCOPES = [
  'r_basicprofile',
  'w_member_social',
  'w_organization_social',
  'r_organization_social',
  'rw_organization_admin',
] as const;

/** The scopes each kind of app asks for: all its product grants that the code uses, no more. */
export const LINKEDIN_SCOPES_OF: Readonly<Record<LinkedInAppKind, readonly string[]>> = {
  member: LINKEDIN_MEMBER_SCOPES,
  community: LINKEDIN_COMMUNITY_SCOPES,
};

export interface LinkedInOAuthDeps extends OAuthClientDeps {
  /** Which kind of app this client is (its credentials are `appCredentials`); member by default. */
  kind?: LinkedInAppKind;
  /** LINKEDIN_OAUTH_URL: `/authorization`, `/accessToken` and `/revoke` live under it. */
  oauthUrl: string;
  /** LINKEDIN_API_URL: the profile is `/v2/userinfo` (member app) or `/v2/me` (community) there. */
  apiUrl: string;
}

/** How OAuthUnavailableError names the network (and its app). */
const NETWORK = 'LinkedIn';

// LinkedIn lists the granted scopes comma-separated (spaces are accepted too).
const TokenAnswer = StandardTokenAnswer.extend({
  refresh_token_expires_in: z.number().int().positive().optional(),
});

/** `/v2/me` with r_basicprofile: the id, the localized names and the vanity name. */
const Me = z.object({
  id: z.string().min(1),
  localizedFirstName: z.string().optional(),
  localizedLastName: z.string().optional(),
  vanityName: z.string().min(1).optional(),
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
  const kind = deps.kind ?? 'member';
  const scopes = LINKEDIN_SCOPES_OF[kind];

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
      // LinkedIn grants all that was asked or nothing: an answer without `scope` granted these.
      defaultScopes: scopes,
      refreshLifetime: { expiresIn: parsed.data.refresh_token_expires_in },
    });
  };

  /** The profile endpoint's JSON answer; a refusal or no answer makes LinkedIn unavailable. */
  const readProfileAnswer = async (path: string, accessToken: string, signal: AbortSignal) => {
    let response: Response;
    try {
      response = await networkFetch(
        `${deps.apiUrl}${path}`,
        { headers: { Authorization: `Bearer ${accessToken}` }, signal },
        deps.fetch,
      );
    } catch (error) {
      throw unavailableWhenUnreachable(error, NETWORK);
    }
    if (!response.ok) {
      throw new OAuthUnavailableError(`LinkedIn refused the profile read (HTTP ${response.status}).`);
    }
    return readOAuthJson(response, NETWORK);
  };

  /** The OAuth error code of a refusal; undefined when the answer is not an OAuth error. */
  const oauthError = (response: Response): Promise<string | undefined> =>
    readOAuthErrorCode(response, NETWORK);

  return {
    usesPkce: false,
    scopes,

    authorizationUrl(request: AuthorizationUrlRequest): string {
      const url = new URL(`${deps.oauthUrl}/authorization`);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', request.clientId);
      url.searchParams.set('redirect_uri', request.redirectUri);
      url.searchParams.set('state', request.state);
      url.searchParams.set('scope', scopes.join(' '));
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
     * The member app reads the OpenID userinfo: `sub` is the member id (their URN is
     * `urn:li:person:{sub}`), `name` the display name and the handle (LinkedIn has no @handle, and
     * the vanity name needs r_basicprofile), `picture` the avatar. A Community Management app has
     * no `openid`: it reads `/v2/me` (r_basicprofile), whose `id` is the member id and whose vanity
     * name is the handle; its picture is an asset URN, not an address, so there is no avatar.
     * LinkedIn's member ids are per app: the same person through the other kind of app is another
     * network user, so another account.
     */
    async readProfile(accessToken: string, signal: AbortSignal): Promise<NetworkProfile> {
      const body = await readProfileAnswer(
        kind === 'member' ? '/v2/userinfo' : '/v2/me',
        accessToken,
        signal,
      );
      if (kind === 'community') {
        const parsed = Me.safeParse(body);
        if (!parsed.success)
          throw new OAuthUnavailableError('LinkedIn answered the profile read unreadably.');
        const me = parsed.data;
        const displayName = [me.localizedFirstName, me.localizedLastName].filter(Boolean).join(' ') || me.id;
        return { networkUserId: me.id, handle: me.vanityName ?? displayName, displayName };
      }
      const parsed = UserInfo.safeParse(body);
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
