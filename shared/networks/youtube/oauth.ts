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
import { authorizationUrl } from '../oauth/authorization-url.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { readOAuthErrorCode } from '../oauth/error-answer.js';
import { StandardTokenAnswer, tokenSetFromAnswer } from '../oauth/token-answer.js';
import { postForm } from '../oauth/token-request.js';
import { readOAuthJson, unavailableWhenUnreachable } from '../oauth/unreachable.js';

/**
 * `youtube.upload` for videos.insert; `youtube.readonly` because the upload scope alone does not
 * let the service read the channel (channels.list mine=true, for the profile) or its videos'
 * processing status (videos.list), both of which it needs. Nothing broader (no `youtube`, which
 * could edit and delete).
 */
export const YOUTUBE_SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.readonly',
] as const;

export interface YouTubeOAuthDeps extends OAuthClientDeps {
  /** GOOGLE_AUTHORIZE_URL: the consent page. */
  authorizeUrl: string;
  /** GOOGLE_TOKEN_URL: code and refresh grants; the revoke endpoint is `/revoke` at its origin. */
  tokenUrl: string;
  /** YOUTUBE_API_URL: the channel is the profile. */
  apiUrl: string;
}

/** Google's revoke endpoint is `https://oauth2.googleapis.com/revoke`, beside the token endpoint. */
export function googleRevokeUrl(tokenUrl: string): string {
  return `${new URL(tokenUrl).origin}/revoke`;
}

/** How OAuthUnavailableError names the network when it cannot be reached. */
const NETWORK = 'Google';

const ChannelList = z.object({
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        snippet: z
          .object({
            title: z.string().optional(),
            customUrl: z.string().optional(),
            thumbnails: z.record(z.string(), z.object({ url: z.string() })).optional(),
          })
          .optional(),
      }),
    )
    .default([]),
});

/**
 * Google's OAuth 2.0 web-server flow (youtube.md §6) with PKCE S256 as well as the client secret:
 * `access_type=offline` and `prompt=consent` so every consent yields a refresh token. Refresh
 * tokens are not rotated: an answer without one keeps the old. The grant requests are written here
 * (form posts through networkFetch) as for LinkedIn: the answers are standard and small.
 */
export function makeYouTubeOAuth(deps: YouTubeOAuthDeps): OAuthProvider {
  const now = deps.now ?? Date.now;

  const credentials = (): Promise<AppCredentials> => requireAppCredentials(deps.appCredentials, 'Google');

  const post = (url: string, form: Record<string, string>, signal: AbortSignal): Promise<Response> =>
    postForm({
      url,
      form,
      headers: { Accept: 'application/json' },
      network: NETWORK,
      signal,
      fetch: deps.fetch,
    });

  const tokenSet = async (response: Response, previous?: TokenSet): Promise<TokenSet> => {
    const parsed = StandardTokenAnswer.safeParse(await readOAuthJson(response, NETWORK));
    if (!parsed.success) throw new OAuthUnavailableError('Google answered the token request unreadably.');
    // Google does not rotate refresh tokens: an answer without one keeps the old.
    return tokenSetFromAnswer(parsed.data, {
      issuedAt: now(),
      previous,
      scopeSeparator: /\s+/,
      defaultScopes: [],
    });
  };

  /** A refusal's OAuth error code (undefined when the answer is not an OAuth error). */
  const oauthError = (response: Response): Promise<string | undefined> =>
    readOAuthErrorCode(response, NETWORK);

  const grant = async (form: Record<string, string>, signal: AbortSignal, previous?: TokenSet) => {
    const app = await credentials();
    const response = await post(
      deps.tokenUrl,
      { ...form, client_id: app.clientId, client_secret: app.clientSecret },
      signal,
    );
    if (response.ok) return tokenSet(response, previous);
    const error = response.status < 500 ? await oauthError(response) : undefined;
    // A dead refresh token or a used code: the user must consent again. Our own app being refused
    // (invalid_client) is a configuration problem, not theirs.
    if (error === 'invalid_grant') throw new GrantRefusedError(error);
    throw new OAuthUnavailableError(`Google refused the grant request (HTTP ${response.status}).`, error);
  };

  return {
    usesPkce: true,
    scopes: YOUTUBE_SCOPES,

    authorizationUrl(request: AuthorizationUrlRequest): string {
      return authorizationUrl(deps.authorizeUrl, request, YOUTUBE_SCOPES, [
        ['access_type', 'offline'],
        ['prompt', 'consent'],
        ['include_granted_scopes', 'true'],
      ]);
    },

    exchangeCode(exchange: CodeExchange, signal: AbortSignal): Promise<TokenSet> {
      return grant(
        {
          grant_type: 'authorization_code',
          code: exchange.code,
          redirect_uri: exchange.redirectUri,
          ...(exchange.codeVerifier && { code_verifier: exchange.codeVerifier }),
        },
        signal,
      );
    },

    async refresh(tokens: TokenSet, signal: AbortSignal): Promise<TokenSet> {
      if (!tokens.refreshToken) throw new GrantRefusedError('no_refresh_token');
      return grant({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken }, signal, tokens);
    },

    /** Revoking either token ends the whole grant at Google; the refresh token is the one that lasts. */
    async revoke(tokens: TokenSet, signal: AbortSignal): Promise<void> {
      const response = await post(
        googleRevokeUrl(deps.tokenUrl),
        { token: tokens.refreshToken ?? tokens.accessToken },
        signal,
      );
      await response.body?.cancel();
      if (!response.ok) {
        throw new OAuthUnavailableError(`Google refused the revocation (HTTP ${response.status}).`);
      }
    },

    /**
     * The account is the channel (`channels?part=snippet&mine=true`): its id is the network user id,
     * its custom URL (`@handle`) the handle, its title the display name.
     */
    async readProfile(accessToken: string, signal: AbortSignal): Promise<NetworkProfile> {
      const url = new URL(`${deps.apiUrl}/channels`);
      url.searchParams.set('part', 'snippet');
      url.searchParams.set('mine', 'true');
      let response: Response;
      try {
        response = await networkFetch(
          url,
          { headers: { Authorization: `Bearer ${accessToken}` }, signal },
          deps.fetch,
        );
      } catch (error) {
        throw unavailableWhenUnreachable(error, NETWORK);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new OAuthUnavailableError(`Google refused the channel read (HTTP ${response.status}).`);
      }
      const parsed = ChannelList.safeParse(await readOAuthJson(response, NETWORK));
      if (!parsed.success) throw new OAuthUnavailableError('YouTube answered the channel read unreadably.');
      const channel = parsed.data.items[0];
      if (!channel) {
        throw new OAuthUnavailableError(
          'The Google account has no YouTube channel to publish to.',
          'noChannel',
        );
      }
      const displayName = channel.snippet?.title || channel.id;
      const customUrl = channel.snippet?.customUrl;
      const thumbnails = channel.snippet?.thumbnails;
      const avatarUrl = thumbnails?.high?.url ?? thumbnails?.medium?.url ?? thumbnails?.default?.url;
      return {
        networkUserId: channel.id,
        handle: customUrl ? (customUrl.startsWith('@') ? customUrl : `@${customUrl}`) : displayName,
        displayName,
        ...(avatarUrl && { avatarUrl }),
      };
    },
  };
}
