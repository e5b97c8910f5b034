import * as z from 'zod';
import { type NetworkProfile, type OAuthProvider, OAuthUnavailableError } from '../../ports/network-oauth.js';
import { makeAuthorizationCodeOAuth } from '../oauth/authorization-code.js';
import { refusesAllButClientErrors } from '../oauth/authorization-code-declaration.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { readProfileJson } from '../oauth/profile-request.js';
import { TIKTOK_INBOX_SCOPE } from './inbox.js';
import { TIKTOK_METRICS_SCOPES } from './metrics-fields.js';

/**
 * Who the creator is, Direct Post (networks/tiktok.md §1), drafts sent to the creator's inbox
 * (`video.upload`, platformOptions.tiktok.mode inbox), and what the metrics read (video.list for
 * the videos' counts, user.info.stats for the profile's): nothing more. The creator may grant a
 * subset (Scopes Overview): an account without video.upload still publishes directly (its inbox
 * posts fail INBOX_SCOPE_MISSING, reconnect), one without the metrics scopes still publishes.
 */
export const TIKTOK_SCOPES: readonly string[] = [
  'user.info.basic',
  'video.publish',
  TIKTOK_INBOX_SCOPE,
  ...TIKTOK_METRICS_SCOPES,
];

export interface TikTokOAuthDeps extends OAuthClientDeps {
  /** TIKTOK_AUTHORIZE_URL: TikTok's consent page. */
  authorizeUrl: string;
  /** TIKTOK_API_URL: `/v2/oauth/token/`, `/v2/oauth/revoke/`, `/v2/user/info/` live under it. */
  apiUrl: string;
  /** TIKTOK_CLIENT_ID holds TikTok's client key. */
}

/** How OAuthUnavailableError names the network (and its app). */
const NETWORK = 'TikTok';

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
 * so not used. Scopes are asked for and granted comma-separated. Refresh tokens rotate: each
 * refresh answers a new one (and says how long it lives) and the old stops working. TikTok may
 * answer an OAuth error with HTTP 200, so every answer is read for `error` first.
 */
export function makeTikTokOAuth(deps: TikTokOAuthDeps): OAuthProvider {
  return makeAuthorizationCodeOAuth(
    {
      network: NETWORK,
      scopes: TIKTOK_SCOPES,
      // An app TikTok has not approved for them is refused at consent if they are asked.
      metricsOnlyScopes: TIKTOK_METRICS_SCOPES,
      // Inbox drafts only; an app TikTok has not approved for video.upload connects without it
      // when the operator says so (TIKTOK_ASK_OPTION_SCOPES=false).
      optionOnlyScopes: [TIKTOK_INBOX_SCOPE],
      usesPkce: false,
      clientIdParameter: 'client_key',
      authorize: { url: consentPage(deps.authorizeUrl), scopeDelimiter: ',' },
      token: {
        url: `${deps.apiUrl}/v2/oauth/token/`,
        clientAuthentication: 'form',
        grantedScopeSeparator: /[\s,]+/,
        withoutScope: 'unknown',
        refreshLifetimeField: 'refresh_expires_in',
        errorsInOkAnswers: true,
        // A code TikTok refuses cannot be tried again; our own app refused is a configuration problem.
        refusesGrant: refusesAllButClientErrors,
      },
      headers: { 'Cache-Control': 'no-cache' },
      revoke: { url: `${deps.apiUrl}/v2/oauth/revoke/`, tokens: (tokens) => [tokens.accessToken] },
      readProfile: (accessToken, signal) => readCreator(deps, accessToken, signal),
    },
    deps,
  );
}

/** TikTok's consent page address ends in a slash, which the endpoint configuration strips. */
function consentPage(authorizeUrl: string): string {
  const url = new URL(authorizeUrl);
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url.toString();
}

/**
 * `user/info` (user.info.basic: open id, display name, avatar). The @username needs another
 * scope there, so it is read from creator_info (video.publish), best effort: without it the
 * handle is the display name.
 */
async function readCreator(
  deps: TikTokOAuthDeps,
  accessToken: string,
  signal: AbortSignal,
): Promise<NetworkProfile> {
  const request = { accessToken, network: NETWORK, signal, fetch: deps.fetch };
  const info = UserInfo.safeParse(
    await readProfileJson({
      ...request,
      url: `${deps.apiUrl}/v2/user/info/?fields=open_id,union_id,avatar_url,display_name`,
    }),
  );
  if (!info.success) throw new OAuthUnavailableError('TikTok refused or garbled the profile read.');
  const user = info.data.data.user;
  let username: string | undefined;
  try {
    const creator = CreatorName.safeParse(
      await readProfileJson({
        ...request,
        url: `${deps.apiUrl}/v2/post/publish/creator_info/query/`,
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=UTF-8' },
      }),
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
}
