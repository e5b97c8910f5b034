import * as z from 'zod';
import { type NetworkProfile, type OAuthProvider, OAuthUnavailableError } from '../../ports/network-oauth.js';
import { makeAuthorizationCodeOAuth } from '../oauth/authorization-code.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { readProfileJson } from '../oauth/profile-request.js';
import {
  YOUTUBE_ANALYTICS_SCOPE,
  YOUTUBE_COMMENT_ONLY_SCOPES,
  YOUTUBE_FORCE_SSL_SCOPE,
  YOUTUBE_METRICS_ONLY_SCOPES,
  YOUTUBE_READONLY_SCOPE,
  YOUTUBE_UPLOAD_SCOPE,
} from './scopes.js';

/**
 * `youtube.upload` for videos.insert; `youtube.readonly` because the upload scope alone does not
 * let the service read the channel (channels.list mine=true, for the profile) or its videos'
 * processing status (videos.list), both of which it needs. Nothing broader (no `youtube`, which
 * could edit and delete). The read-only scope also reads the statistics; `yt-analytics.readonly`
 * (watch time, average view percentage) is asked only for the metrics, and left out where the
 * operator says the app is not approved for it (askMetricsScopes false). `youtube.force-ssl` is
 * asked for first comments (commentThreads.insert takes nothing else) and left out where the
 * operator's app is not approved for it (askCommentScopes false); adding to a playlist needs it too.
 */
export const YOUTUBE_SCOPES = [
  YOUTUBE_UPLOAD_SCOPE,
  YOUTUBE_READONLY_SCOPE,
  YOUTUBE_ANALYTICS_SCOPE,
  YOUTUBE_FORCE_SSL_SCOPE,
] as const;

/** What the connect asks for, and which of it serves only the metrics or only first comments. */
const YOUTUBE_DECLARED_SCOPES = {
  scopes: YOUTUBE_SCOPES,
  metricsOnlyScopes: YOUTUBE_METRICS_ONLY_SCOPES,
  commentOnlyScopes: YOUTUBE_COMMENT_ONLY_SCOPES,
};

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

/** How OAuthUnavailableError names the network: the grant is Google's. */
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
 * Google's OAuth 2.0 web-server flow (youtube.md §6) with PKCE S256 as well as the client secret
 * (in the form): `access_type=offline` and `prompt=consent` so every consent yields a refresh
 * token. Refresh tokens are not rotated: an answer without one keeps the old. Only invalid_grant
 * (a dead refresh token, a used code) refuses the grant; invalid_client is our configuration's.
 */
export function makeYouTubeOAuth(deps: YouTubeOAuthDeps): OAuthProvider {
  return makeAuthorizationCodeOAuth(
    {
      network: NETWORK,
      ...YOUTUBE_DECLARED_SCOPES,
      usesPkce: true,
      authorize: {
        url: deps.authorizeUrl,
        parameters: [
          ['access_type', 'offline'],
          ['prompt', 'consent'],
          ['include_granted_scopes', 'true'],
        ],
      },
      token: { url: deps.tokenUrl, clientAuthentication: 'form', withoutScope: 'unknown' },
      revoke: {
        url: googleRevokeUrl(deps.tokenUrl),
        // Revoking either token ends the whole grant at Google; the refresh token is the one that lasts.
        tokens: (tokens) => [tokens.refreshToken ?? tokens.accessToken],
        unauthenticated: true,
      },
      readProfile: (accessToken, signal) => readChannel(deps, accessToken, signal),
    },
    deps,
  );
}

/**
 * The account is the channel (`channels?part=snippet&mine=true`): its id is the network user id,
 * its custom URL (`@handle`) the handle, its title the display name.
 */
async function readChannel(
  deps: YouTubeOAuthDeps,
  accessToken: string,
  signal: AbortSignal,
): Promise<NetworkProfile> {
  const url = new URL(`${deps.apiUrl}/channels`);
  url.searchParams.set('part', 'snippet');
  url.searchParams.set('mine', 'true');
  const body = await readProfileJson({ url, accessToken, network: NETWORK, signal, fetch: deps.fetch });
  const parsed = ChannelList.safeParse(body);
  if (!parsed.success) throw new OAuthUnavailableError('YouTube answered the channel read unreadably.');
  const channel = parsed.data.items[0];
  if (!channel) {
    throw new OAuthUnavailableError('The Google account has no YouTube channel to publish to.', 'noChannel');
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
}
