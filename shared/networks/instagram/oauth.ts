import * as z from 'zod';
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
import { isRecord } from '../http/json-answer.js';
import { networkFetch } from '../http/network-fetch.js';
import { requireAppCredentials } from '../oauth/app-credentials.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { postForm } from '../oauth/token-request.js';
import { readOAuthJson, unavailableWhenUnreachable } from '../oauth/unreachable.js';
import { INSTAGRAM_GRAPH_VERSION } from './api.js';

/** Instagram API with Instagram Login: who the account is, and publishing as it (instagram.md §1). */
export const INSTAGRAM_SCOPES: readonly string[] = [
  'instagram_business_basic',
  'instagram_business_content_publish',
];

/** A long-lived token lives 60 days (instagram.md §4). */
export const INSTAGRAM_LONG_LIVED_SECONDS = 60 * 24 * 60 * 60;
/** Meta refreshes a long-lived token only once it is at least 24 hours old. */
export const INSTAGRAM_REFRESH_MIN_AGE_MS = 24 * 60 * 60 * 1000;

export interface InstagramOAuthDeps extends OAuthClientDeps {
  /** INSTAGRAM_AUTHORIZE_URL: the consent page (www.instagram.com/oauth/authorize). */
  authorizeUrl: string;
  /** INSTAGRAM_OAUTH_URL: the code exchange is `{it}/access_token` (api.instagram.com/oauth). */
  oauthUrl: string;
  /** INSTAGRAM_GRAPH_URL: the long-lived exchange, the refresh and the profile. */
  graphUrl: string;
}

/** How OAuthUnavailableError names the network (and its app). */
const NETWORK = 'Instagram';

/** The code exchange answers `{data:[{…}]}` in the current docs, a flat object in older ones. */
const ShortLived = z.object({
  access_token: z.string().min(1),
  user_id: z.union([z.string(), z.number()]).optional(),
  permissions: z.union([z.string(), z.array(z.string())]).optional(),
});
const LongLived = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive().optional(),
});
const Me = z.object({
  user_id: z.union([z.string(), z.number()]).transform(String),
  username: z.string().min(1),
  name: z.string().optional(),
  profile_picture_url: z.string().optional(),
});

/**
 * Instagram Login's OAuth (instagram.md §4), not standard enough for oauth4webapi: the code gives a
 * short-lived token (1 hour) that is at once exchanged for a long-lived one (60 days,
 * `ig_exchange_token`, with the app secret); that token is refreshed with itself
 * (`ig_refresh_token`). There is no refresh token, so the token set carries the long-lived token as
 * its `refreshToken` too (what the worker and the sweep refresh with), and `refreshExpiresAt` is the
 * token's own expiry: an expired long-lived token cannot be refreshed, the account is reconnected.
 */
export function makeInstagramOAuth(deps: InstagramOAuthDeps): OAuthProvider {
  const now = deps.now ?? Date.now;

  const credentials = (): Promise<AppCredentials> => requireAppCredentials(deps.appCredentials, NETWORK);

  const call = async (url: URL, init: RequestInit, signal: AbortSignal): Promise<Response> => {
    try {
      return await networkFetch(url, { ...init, signal }, deps.fetch);
    } catch (error) {
      throw unavailableWhenUnreachable(error, NETWORK);
    }
  };

  /** The long-lived token set from an ig_exchange_token or ig_refresh_token answer. */
  const longLived = async (response: Response, scopes: string[], what: string): Promise<TokenSet> => {
    const parsed = LongLived.safeParse(await readOAuthJson(response, NETWORK));
    if (!parsed.success) throw new OAuthUnavailableError(`Instagram answered ${what} unreadably.`);
    const expiresAt = new Date(
      now() + (parsed.data.expires_in ?? INSTAGRAM_LONG_LIVED_SECONDS) * 1000,
    ).toISOString();
    return {
      accessToken: parsed.data.access_token,
      refreshToken: parsed.data.access_token,
      expiresAt,
      refreshExpiresAt: expiresAt,
      scopes,
    };
  };

  /** A refusal's Graph code: 190 (a token or code refused for good) and 400 OAuthException. */
  const refusal = async (response: Response): Promise<string | undefined> => {
    const body = await readOAuthJson(response, NETWORK);
    if (!isRecord(body)) return undefined;
    if (isRecord(body.error) && typeof body.error.code === 'number') return String(body.error.code);
    if (typeof body.error_type === 'string') return body.error_type;
    return undefined;
  };

  return {
    usesPkce: false,
    scopes: INSTAGRAM_SCOPES,

    authorizationUrl(request: AuthorizationUrlRequest): string {
      const url = new URL(deps.authorizeUrl);
      url.searchParams.set('client_id', request.clientId);
      url.searchParams.set('redirect_uri', request.redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', INSTAGRAM_SCOPES.join(','));
      url.searchParams.set('state', request.state);
      return url.toString();
    },

    async exchangeCode(exchange: CodeExchange, signal: AbortSignal): Promise<TokenSet> {
      const app = await credentials();
      const response = await postForm({
        url: new URL(`${deps.oauthUrl}/access_token`),
        form: {
          client_id: app.clientId,
          client_secret: app.clientSecret,
          grant_type: 'authorization_code',
          redirect_uri: exchange.redirectUri,
          code: exchange.code,
        },
        headers: { Accept: 'application/json' },
        network: NETWORK,
        signal,
        fetch: deps.fetch,
      });
      if (!response.ok) {
        const code = response.status < 500 ? await refusal(response) : undefined;
        // A code Instagram refuses (used, expired, another redirect) cannot be tried again.
        if (response.status === 400 && code) throw new GrantRefusedError(code);
        throw new OAuthUnavailableError(
          `Instagram refused the code exchange (HTTP ${response.status}).`,
          code,
        );
      }
      const body = await readOAuthJson(response, NETWORK);
      const answer = ShortLived.safeParse(isRecord(body) && Array.isArray(body.data) ? body.data[0] : body);
      if (!answer.success)
        throw new OAuthUnavailableError('Instagram answered the code exchange unreadably.');
      const granted = answer.data.permissions;
      const scopes = granted === undefined ? [...INSTAGRAM_SCOPES] : splitScopes(granted);

      const exchangeUrl = new URL(`${deps.graphUrl}/access_token`);
      exchangeUrl.searchParams.set('grant_type', 'ig_exchange_token');
      exchangeUrl.searchParams.set('client_secret', app.clientSecret);
      exchangeUrl.searchParams.set('access_token', answer.data.access_token);
      const exchanged = await call(exchangeUrl, { method: 'GET' }, signal);
      if (!exchanged.ok) {
        const code = exchanged.status < 500 ? await refusal(exchanged) : undefined;
        throw new OAuthUnavailableError(
          `Instagram refused the long-lived token exchange (HTTP ${exchanged.status}).`,
          code,
        );
      }
      return longLived(exchanged, scopes, 'the long-lived token exchange');
    },

    /**
     * `ig_refresh_token` with the long-lived token itself. Meta refuses a token younger than 24
     * hours, so such a token is returned as it is (it has about 60 days left anyway); its age is
     * told from its expiry (issued 60 days before it). An expired or revoked token is refused for
     * good (GrantRefusedError: the account is disconnected and must be reconnected).
     */
    async refresh(tokens: TokenSet, signal: AbortSignal): Promise<TokenSet> {
      const token = tokens.refreshToken ?? tokens.accessToken;
      if (tokens.expiresAt) {
        const expiresAt = Date.parse(tokens.expiresAt);
        if (expiresAt <= now()) throw new GrantRefusedError('token_expired');
        const issuedAt = expiresAt - INSTAGRAM_LONG_LIVED_SECONDS * 1000;
        if (now() - issuedAt < INSTAGRAM_REFRESH_MIN_AGE_MS) return tokens;
      }
      const url = new URL(`${deps.graphUrl}/refresh_access_token`);
      url.searchParams.set('grant_type', 'ig_refresh_token');
      url.searchParams.set('access_token', token);
      const response = await call(url, { method: 'GET' }, signal);
      if (response.ok) return longLived(response, tokens.scopes, 'the token refresh');
      const code = response.status < 500 ? await refusal(response) : undefined;
      if (code === '190') throw new GrantRefusedError(code);
      throw new OAuthUnavailableError(`Instagram refused the token refresh (HTTP ${response.status}).`, code);
    },

    async readProfile(accessToken: string, signal: AbortSignal): Promise<NetworkProfile> {
      const url = new URL(`${deps.graphUrl}/${INSTAGRAM_GRAPH_VERSION}/me`);
      url.searchParams.set('fields', 'user_id,username,name,profile_picture_url');
      const response = await call(
        url,
        { method: 'GET', headers: { Authorization: `Bearer ${accessToken}` } },
        signal,
      );
      if (!response.ok) {
        throw new OAuthUnavailableError(`Instagram refused the profile read (HTTP ${response.status}).`);
      }
      const parsed = Me.safeParse(await readOAuthJson(response, NETWORK));
      if (!parsed.success) throw new OAuthUnavailableError('Instagram answered the profile read unreadably.');
      const me = parsed.data;
      return {
        // The professional account's id: the one /{ig-user-id}/media publishes under.
        networkUserId: me.user_id,
        handle: `@${me.username}`,
        displayName: me.name || me.username,
        ...(me.profile_picture_url && { avatarUrl: me.profile_picture_url }),
      };
    },
  };
}

function splitScopes(granted: string | string[]): string[] {
  return (Array.isArray(granted) ? granted : granted.split(/[\s,]+/)).filter(Boolean);
}
