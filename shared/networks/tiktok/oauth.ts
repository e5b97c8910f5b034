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
import { networkFetch } from '../http/network-fetch.js';
import { requireAppCredentials } from '../oauth/app-credentials.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { oauthErrorCode } from '../oauth/error-answer.js';
import { StandardTokenAnswer, tokenSetFromAnswer } from '../oauth/token-answer.js';
import { postForm } from '../oauth/token-request.js';
import { readOAuthJson, unavailableWhenUnreachable } from '../oauth/unreachable.js';

/**
 * Who the creator is, and Direct Post (networks/tiktok.md §1): nothing more. `video.upload` is
 * for sending drafts to the creator's inbox, which the connector never does.
 */
export const TIKTOK_SCOPES: readonly string[] = ['user.info.basic', 'video.publish'];

export interface TikTokOAuthDeps extends OAuthClientDeps {
  /** TIKTOK_AUTHORIZE_URL: TikTok's consent page. */
  authorizeUrl: string;
  /** TIKTOK_API_URL: `/v2/oauth/token/`, `/v2/oauth/revoke/`, `/v2/user/info/` live under it. */
  apiUrl: string;
  /** TIKTOK_CLIENT_ID holds TikTok's client key. */
}

/** How OAuthUnavailableError names the network (and its app). */
const NETWORK = 'TikTok';

const TokenAnswer = StandardTokenAnswer.extend({
  refresh_expires_in: z.number().int().positive().optional(),
  open_id: z.string().optional(),
});

const UserInfo = z.object({
  data: z.object({
    user: z.object({
      open_id: z.string().min(1),
      display_name: z.string().optional(),
      avatar_url: z.string().optional(),
      username: z.string().optional(),
    }),
  }),
});

const CreatorName = z.object({ data: z.object({ creator_username: z.string().min(1) }) });

/**
 * TikTok's OAuth v2 for web apps (networks/tiktok.md §8): the app is named by `client_key` (not
 * `client_id`) and authenticated by its secret in the form; PKCE is for mobile and desktop apps,
 * so not used. Refresh tokens rotate: each refresh answers a new one and the old stops working.
 * TikTok may answer an OAuth error with HTTP 200, so every answer is read for `error` first.
 */
export function makeTikTokOAuth(deps: TikTokOAuthDeps): OAuthProvider {
  const now = deps.now ?? Date.now;

  const credentials = (): Promise<AppCredentials> => requireAppCredentials(deps.appCredentials, NETWORK);

  /** The body of any answer below 500: TikTok may answer an OAuth error with 200 or a 4xx alike. */
  const bodyOf = async (response: Response): Promise<unknown> => {
    const body = await readOAuthJson(response, NETWORK);
    if (response.status >= 500) {
      throw new OAuthUnavailableError(`TikTok failed the OAuth request (HTTP ${response.status}).`);
    }
    return body;
  };

  const send = async (url: string, init: RequestInit, signal: AbortSignal): Promise<unknown> => {
    let response: Response;
    try {
      response = await networkFetch(url, { ...init, signal }, deps.fetch);
    } catch (error) {
      throw unavailableWhenUnreachable(error, NETWORK);
    }
    return bodyOf(response);
  };

  /** The token and revoke endpoints: a form with the app's key and secret in it. */
  const postOAuthForm = async (
    path: string,
    form: Record<string, string>,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<unknown> =>
    bodyOf(
      await postForm({
        url: `${deps.apiUrl}${path}`,
        form,
        headers,
        network: NETWORK,
        signal,
        fetch: deps.fetch,
      }),
    );

  const tokenRequest = (form: Record<string, string>, signal: AbortSignal): Promise<unknown> =>
    postOAuthForm('/v2/oauth/token/', form, { 'Cache-Control': 'no-cache' }, signal);

  const tokenSet = (body: unknown, previous?: TokenSet): TokenSet => {
    const parsed = TokenAnswer.safeParse(body);
    if (!parsed.success) throw new OAuthUnavailableError('TikTok answered the token request unreadably.');
    // Refresh tokens rotate, and each answer says how long the new one lives (refresh_expires_in).
    return tokenSetFromAnswer(parsed.data, {
      issuedAt: now(),
      previous,
      scopeSeparator: /[\s,]+/,
      defaultScopes: [],
      refreshLifetime: { expiresIn: parsed.data.refresh_expires_in },
    });
  };

  return {
    usesPkce: false,
    scopes: TIKTOK_SCOPES,

    authorizationUrl(request: AuthorizationUrlRequest): string {
      const url = new URL(deps.authorizeUrl);
      // TikTok's address ends in a slash, which the endpoint configuration strips.
      if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
      url.searchParams.set('client_key', request.clientId);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', TIKTOK_SCOPES.join(','));
      url.searchParams.set('redirect_uri', request.redirectUri);
      url.searchParams.set('state', request.state);
      return url.toString();
    },

    async exchangeCode(exchange: CodeExchange, signal: AbortSignal): Promise<TokenSet> {
      const app = await credentials();
      const body = await tokenRequest(
        {
          client_key: app.clientId,
          client_secret: app.clientSecret,
          code: exchange.code,
          grant_type: 'authorization_code',
          redirect_uri: exchange.redirectUri,
        },
        signal,
      );
      const error = oauthErrorCode(body);
      // A code TikTok refuses cannot be tried again; our own app refused is a configuration problem.
      if (error && error !== 'invalid_client') throw new GrantRefusedError(error);
      if (error) throw new OAuthUnavailableError('TikTok refused the app’s credentials.', error);
      return tokenSet(body);
    },

    /** The answer's refresh token replaces the old one, which TikTok stops accepting. */
    async refresh(tokens: TokenSet, signal: AbortSignal): Promise<TokenSet> {
      if (!tokens.refreshToken) throw new GrantRefusedError('no_refresh_token');
      const app = await credentials();
      const body = await tokenRequest(
        {
          client_key: app.clientId,
          client_secret: app.clientSecret,
          grant_type: 'refresh_token',
          refresh_token: tokens.refreshToken,
        },
        signal,
      );
      const error = oauthErrorCode(body);
      if (error === 'invalid_grant') throw new GrantRefusedError(error);
      if (error) throw new OAuthUnavailableError('TikTok refused the refresh.', error);
      return tokenSet(body, tokens);
    },

    async revoke(tokens: TokenSet, signal: AbortSignal): Promise<void> {
      const app = await credentials();
      const body = await postOAuthForm(
        '/v2/oauth/revoke/',
        { client_key: app.clientId, client_secret: app.clientSecret, token: tokens.accessToken },
        {},
        signal,
      );
      const error = oauthErrorCode(body);
      if (error) throw new OAuthUnavailableError('TikTok refused the revocation.', error);
    },

    /**
     * `user/info` (user.info.basic: open id, display name, avatar). The @username needs another
     * scope there, so it is read from creator_info (video.publish), best effort: without it the
     * handle is the display name.
     */
    async readProfile(accessToken: string, signal: AbortSignal): Promise<NetworkProfile> {
      const headers = { Authorization: `Bearer ${accessToken}` };
      const info = UserInfo.safeParse(
        await send(
          `${deps.apiUrl}/v2/user/info/?fields=open_id,union_id,avatar_url,display_name`,
          { method: 'GET', headers },
          signal,
        ),
      );
      if (!info.success) throw new OAuthUnavailableError('TikTok refused or garbled the profile read.');
      const user = info.data.data.user;
      let username: string | undefined;
      try {
        const creator = CreatorName.safeParse(
          await send(
            `${deps.apiUrl}/v2/post/publish/creator_info/query/`,
            { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json; charset=UTF-8' } },
            signal,
          ),
        );
        if (creator.success) username = creator.data.data.creator_username;
      } catch {
        username = undefined;
      }
      const displayName = user.display_name ?? username ?? user.open_id;
      return {
        networkUserId: user.open_id,
        handle: username ? `@${username}` : displayName,
        displayName,
        ...(user.avatar_url && { avatarUrl: user.avatar_url }),
      };
    },
  };
}
