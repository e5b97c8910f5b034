import * as z from 'zod';
import {
  GrantRefusedError,
  type NetworkProfile,
  type OAuthProvider,
  OAuthUnavailableError,
  type TokenSet,
} from '../../ports/network-oauth.js';
import { isRecord } from '../http/json-answer.js';
import { networkFetch } from '../http/network-fetch.js';
import { makeAuthorizationCodeOAuth } from '../oauth/authorization-code.js';
import type { TokenAnswerContext } from '../oauth/authorization-code-declaration.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { readProfileJson } from '../oauth/profile-request.js';
import { scopesToAsk } from '../oauth/scopes-to-ask.js';
import { readOAuthJson, unavailableWhenUnreachable } from '../oauth/unreachable.js';
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
const LongLived = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive().optional(),
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
  const now = deps.now ?? Date.now;
  const tokens = new LongLivedTokens(deps, now);
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
        readAnswer: (body, context) => tokens.fromShortLived(body, context),
      },
      refresh: (held, signal) => tokens.refresh(held, signal),
      readProfile: (accessToken, signal) => readThreadsProfile(deps, accessToken, signal),
    },
    deps,
  );
}

/** The long-lived token's exchange and refresh: GET requests on the Graph host, unversioned. */
class LongLivedTokens {
  constructor(
    private readonly deps: ThreadsOAuthDeps,
    private readonly now: () => number,
  ) {}

  /** The code exchange's short-lived token, at once exchanged for a long-lived one. */
  async fromShortLived(body: unknown, context: TokenAnswerContext): Promise<TokenSet> {
    const answer = ShortLived.safeParse(body);
    if (!answer.success) throw new OAuthUnavailableError('Threads answered the code exchange unreadably.');
    const url = new URL(`${this.deps.graphUrl}/access_token`);
    url.searchParams.set('grant_type', 'th_exchange_token');
    url.searchParams.set('client_secret', context.app.clientSecret);
    url.searchParams.set('access_token', answer.data.access_token);
    const exchanged = await this.get(url, context.signal);
    if (!exchanged.ok) {
      const code = exchanged.status < 500 ? await refusalCode(exchanged) : undefined;
      throw new OAuthUnavailableError(
        `Threads refused the long-lived token exchange (HTTP ${exchanged.status}).`,
        code,
      );
    }
    // Threads does not say what was granted: what this app asked (a declined one shows as a 10 later).
    const scopes = scopesToAsk(
      { scopes: THREADS_SCOPES, metricsOnlyScopes: threadsMetrics.scopes },
      context.app,
    );
    return this.tokenSet(exchanged, scopes, 'the long-lived token exchange');
  }

  /**
   * `th_refresh_token` with the long-lived token itself. Meta refuses a token younger than 24
   * hours, so such a token is returned as it is (it has about 60 days left anyway); its age is
   * told from its expiry (issued 60 days before it). An expired or revoked token is refused for
   * good (GrantRefusedError: the account is disconnected and must be reconnected).
   */
  async refresh(tokens: TokenSet, signal: AbortSignal): Promise<TokenSet> {
    const token = tokens.refreshToken ?? tokens.accessToken;
    if (tokens.expiresAt) {
      const expiresAt = Date.parse(tokens.expiresAt);
      if (expiresAt <= this.now()) throw new GrantRefusedError('token_expired');
      const issuedAt = expiresAt - THREADS_LONG_LIVED_SECONDS * 1000;
      if (this.now() - issuedAt < THREADS_REFRESH_MIN_AGE_MS) return tokens;
    }
    const url = new URL(`${this.deps.graphUrl}/refresh_access_token`);
    url.searchParams.set('grant_type', 'th_refresh_token');
    url.searchParams.set('access_token', token);
    const response = await this.get(url, signal);
    if (response.ok) return this.tokenSet(response, tokens.scopes, 'the token refresh');
    const code = response.status < 500 ? await refusalCode(response) : undefined;
    if (code === '190') throw new GrantRefusedError(code);
    throw new OAuthUnavailableError(`Threads refused the token refresh (HTTP ${response.status}).`, code);
  }

  private async get(url: URL, signal: AbortSignal): Promise<Response> {
    try {
      return await networkFetch(url, { method: 'GET', signal }, this.deps.fetch);
    } catch (error) {
      throw unavailableWhenUnreachable(error, NETWORK);
    }
  }

  /** The long-lived token set from a th_exchange_token or th_refresh_token answer. */
  private async tokenSet(response: Response, scopes: string[], what: string): Promise<TokenSet> {
    const parsed = LongLived.safeParse(await readOAuthJson(response, NETWORK));
    if (!parsed.success) throw new OAuthUnavailableError(`Threads answered ${what} unreadably.`);
    const expiresAt = new Date(
      this.now() + (parsed.data.expires_in ?? THREADS_LONG_LIVED_SECONDS) * 1000,
    ).toISOString();
    return {
      accessToken: parsed.data.access_token,
      refreshToken: parsed.data.access_token,
      expiresAt,
      refreshExpiresAt: expiresAt,
      scopes,
    };
  }
}

/** A refusal's Graph code: 190 (a token refused for good), 100 (a parameter), 101 (the secret). */
function graphErrorCode(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  return typeof body.error.code === 'number' ? String(body.error.code) : undefined;
}

async function refusalCode(response: Response): Promise<string | undefined> {
  return graphErrorCode(await readOAuthJson(response, NETWORK));
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
