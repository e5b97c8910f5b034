import * as z from 'zod';
import {
  type NetworkProfile,
  type OAuthProvider,
  OAuthUnavailableError,
  type TokenSet,
} from '../../ports/network-oauth.js';
import { LongLivedTokens } from '../graph-api/long-lived-token.js';
import { isRecord } from '../http/json-answer.js';
import { makeAuthorizationCodeOAuth } from '../oauth/authorization-code.js';
import type { TokenAnswerContext } from '../oauth/authorization-code-declaration.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { readProfileJson } from '../oauth/profile-request.js';
import { scopesToAsk } from '../oauth/scopes-to-ask.js';
import { THREADS_API_VERSION } from './api.js';
import { threadsMetrics } from './metrics-fields.js';

/**
 * What the connector needs (threads.md §3): every call (`threads_basic`), containers and publishing
 * (`threads_content_publish`), a thread's replies (`threads_manage_replies`) and the look-up of a
 * reply among the account's replies (`threads_read_replies`), and the metrics' insights
 * (`threads_manage_insights`, metrics-fields.ts; left out for an app not approved for it).
 */
export const THREADS_SCOPES: readonly string[] = [
  'threads_basic',
  'threads_content_publish',
  'threads_manage_replies',
  'threads_read_replies',
  ...threadsMetrics.scopes,
];

/** A long-lived token lives 60 days (threads.md §3). */
export const THREADS_LONG_LIVED_SECONDS = 60 * 24 * 60 * 60;
/** Meta refreshes a long-lived token only once it is at least 24 hours old. */
export const THREADS_REFRESH_MIN_AGE_MS = 24 * 60 * 60 * 1000;

export interface ThreadsOAuthDeps extends OAuthClientDeps {
  /** THREADS_AUTHORIZE_URL: the consent page (threads.net/oauth/authorize). */
  authorizeUrl: string;
  /** THREADS_GRAPH_URL: the code exchange (`/oauth/access_token`), the long-lived exchange, the refresh, the profile. */
  graphUrl: string;
}

/** How OAuthUnavailableError names the network (and its app). */
const NETWORK = 'Threads';

const ShortLived = z.object({
  access_token: z.string().min(1),
  user_id: z.union([z.string(), z.number()]).optional(),
});
const Me = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  username: z.string().min(1),
  name: z.string().optional(),
  threads_profile_picture_url: z.string().optional(),
});

/**
 * Threads' OAuth (threads.md §3): a consent page and code exchange (scopes comma-separated, the
 * secret in the form, no PKCE), then Meta's own tokens: the code's short-lived token (1 hour) is at
 * once exchanged for a long-lived one (60 days, `th_exchange_token`, with the app secret), which is
 * refreshed with itself (`th_refresh_token`). There is no refresh token, so the token set carries
 * the long-lived token as its `refreshToken` too, and `refreshExpiresAt` is the token's own expiry:
 * an expired long-lived token cannot be refreshed, the account is reconnected.
 */
export function makeThreadsOAuth(deps: ThreadsOAuthDeps): OAuthProvider {
  const tokens = new LongLivedTokens({
    network: NETWORK,
    graphUrl: deps.graphUrl,
    grantTypes: { exchange: 'th_exchange_token', refresh: 'th_refresh_token' },
    lifetimeSeconds: THREADS_LONG_LIVED_SECONDS,
    refreshMinAgeMs: THREADS_REFRESH_MIN_AGE_MS,
    errorCode: graphErrorCode,
    fetch: deps.fetch,
    now: deps.now ?? Date.now,
  });
  return makeAuthorizationCodeOAuth(
    {
      network: NETWORK,
      scopes: THREADS_SCOPES,
      metricsOnlyScopes: threadsMetrics.scopes,
      usesPkce: false,
      authorize: { url: deps.authorizeUrl, scopeDelimiter: ',' },
      token: {
        url: `${deps.graphUrl}/oauth/access_token`,
        clientAuthentication: 'form',
        withoutScope: 'asked',
        errorCode: graphErrorCode,
        // A code Threads refuses (used, expired, another redirect) cannot be tried again.
        refusesGrant: (error) => error.status === 400,
        readAnswer: (body, context) => fromShortLived(tokens, body, context),
      },
      refresh: (held, signal) => tokens.refresh(held, signal),
      readProfile: (accessToken, signal) => readThreadsProfile(deps, accessToken, signal),
    },
    deps,
  );
}

/** A refusal's Graph code: 190 (a token refused for good), 100 (a parameter), 101 (the secret). */
function graphErrorCode(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  return typeof body.error.code === 'number' ? String(body.error.code) : undefined;
}

/** The code exchange's short-lived token, at once exchanged for a long-lived one. */
async function fromShortLived(
  tokens: LongLivedTokens,
  body: unknown,
  context: TokenAnswerContext,
): Promise<TokenSet> {
  const answer = ShortLived.safeParse(body);
  if (!answer.success) throw new OAuthUnavailableError('Threads answered the code exchange unreadably.');
  // Threads does not say what was granted: what this app asked (a declined one shows as a 10 later).
  const scopes = scopesToAsk(
    { scopes: THREADS_SCOPES, metricsOnlyScopes: threadsMetrics.scopes },
    context.app,
  );
  return tokens.exchange(answer.data.access_token, scopes, context);
}

async function readThreadsProfile(
  deps: ThreadsOAuthDeps,
  accessToken: string,
  signal: AbortSignal,
): Promise<NetworkProfile> {
  const url = new URL(`${deps.graphUrl}/${THREADS_API_VERSION}/me`);
  url.searchParams.set('fields', 'id,username,name,threads_profile_picture_url');
  const parsed = Me.safeParse(
    await readProfileJson({ url, accessToken, network: NETWORK, signal, fetch: deps.fetch }),
  );
  if (!parsed.success) throw new OAuthUnavailableError('Threads answered the profile read unreadably.');
  const me = parsed.data;
  return {
    // The Threads user id: the one /{threads-user-id}/threads publishes under.
    networkUserId: me.id,
    handle: `@${me.username}`,
    displayName: me.name || me.username,
    ...(me.threads_profile_picture_url && { avatarUrl: me.threads_profile_picture_url }),
  };
}
