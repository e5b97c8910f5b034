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
import { INSTAGRAM_GRAPH_VERSION } from './api.js';
import { instagramMetrics } from './metrics-fields.js';

/**
 * Instagram API with Instagram Login: who the account is, publishing as it (instagram.md §1), and
 * its posts' insights (the metrics' scopes, metrics-fields.ts).
 */
export const INSTAGRAM_SCOPES: readonly string[] = [
  'instagram_business_basic',
  'instagram_business_content_publish',
  ...instagramMetrics.scopes,
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
 * Instagram Login's OAuth (instagram.md §4): a standard consent page and code exchange (scopes
 * comma-separated, the secret in the form, a refused code a 400 with a Graph error), then its own
 * tokens. The code gives a short-lived token (1 hour) that is at once exchanged for a long-lived
 * one (60 days, `ig_exchange_token`, with the app secret); that token is refreshed with itself
 * (`ig_refresh_token`). There is no refresh token, so the token set carries the long-lived token as
 * its `refreshToken` too (what the worker and the sweep refresh with), and `refreshExpiresAt` is the
 * token's own expiry: an expired long-lived token cannot be refreshed, the account is reconnected.
 */
export function makeInstagramOAuth(deps: InstagramOAuthDeps): OAuthProvider {
  const now = deps.now ?? Date.now;
  const tokens = new LongLivedTokens(deps, now);
  return makeAuthorizationCodeOAuth(
    {
      network: NETWORK,
      scopes: INSTAGRAM_SCOPES,
      metricsOnlyScopes: instagramMetrics.scopes,
      usesPkce: false,
      authorize: { url: deps.authorizeUrl, scopeDelimiter: ',' },
      token: {
        url: `${deps.oauthUrl}/access_token`,
        clientAuthentication: 'form',
        withoutScope: 'asked',
        errorCode: graphErrorCode,
        // A code Instagram refuses (used, expired, another redirect) cannot be tried again.
        refusesGrant: (error) => error.status === 400,
        readAnswer: (body, context) => tokens.fromShortLived(body, context),
      },
      refresh: (held, signal) => tokens.refresh(held, signal),
      readProfile: (accessToken, signal) => readProfessionalAccount(deps, accessToken, signal),
    },
    deps,
  );
}

/** The long-lived token's exchange and refresh: GET requests on the Graph host. */
class LongLivedTokens {
  constructor(
    private readonly deps: InstagramOAuthDeps,
    private readonly now: () => number,
  ) {}

  /** The code exchange's short-lived token, at once exchanged for a long-lived one. */
  async fromShortLived(body: unknown, context: TokenAnswerContext): Promise<TokenSet> {
    const answer = ShortLived.safeParse(isRecord(body) && Array.isArray(body.data) ? body.data[0] : body);
    if (!answer.success) throw new OAuthUnavailableError('Instagram answered the code exchange unreadably.');
    const granted = answer.data.permissions;
    // Without `permissions`, what this app asked for (scopes-to-ask.ts).
    const scopes =
      granted === undefined
        ? scopesToAsk({ scopes: INSTAGRAM_SCOPES, metricsOnlyScopes: instagramMetrics.scopes }, context.app)
        : splitScopes(granted);

    const url = new URL(`${this.deps.graphUrl}/access_token`);
    url.searchParams.set('grant_type', 'ig_exchange_token');
    url.searchParams.set('client_secret', context.app.clientSecret);
    url.searchParams.set('access_token', answer.data.access_token);
    const exchanged = await this.get(url, context.signal);
    if (!exchanged.ok) {
      const code = exchanged.status < 500 ? await refusalCode(exchanged) : undefined;
      throw new OAuthUnavailableError(
        `Instagram refused the long-lived token exchange (HTTP ${exchanged.status}).`,
        code,
      );
    }
    return this.tokenSet(exchanged, scopes, 'the long-lived token exchange');
  }

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
      if (expiresAt <= this.now()) throw new GrantRefusedError('token_expired');
      const issuedAt = expiresAt - INSTAGRAM_LONG_LIVED_SECONDS * 1000;
      if (this.now() - issuedAt < INSTAGRAM_REFRESH_MIN_AGE_MS) return tokens;
    }
    const url = new URL(`${this.deps.graphUrl}/refresh_access_token`);
    url.searchParams.set('grant_type', 'ig_refresh_token');
    url.searchParams.set('access_token', token);
    const response = await this.get(url, signal);
    if (response.ok) return this.tokenSet(response, tokens.scopes, 'the token refresh');
    const code = response.status < 500 ? await refusalCode(response) : undefined;
    if (code === '190') throw new GrantRefusedError(code);
    throw new OAuthUnavailableError(`Instagram refused the token refresh (HTTP ${response.status}).`, code);
  }

  private async get(url: URL, signal: AbortSignal): Promise<Response> {
    try {
      return await networkFetch(url, { method: 'GET', signal }, this.deps.fetch);
    } catch (error) {
      throw unavailableWhenUnreachable(error, NETWORK);
    }
  }

  /** The long-lived token set from an ig_exchange_token or ig_refresh_token answer. */
  private async tokenSet(response: Response, scopes: string[], what: string): Promise<TokenSet> {
    const parsed = LongLived.safeParse(await readOAuthJson(response, NETWORK));
    if (!parsed.success) throw new OAuthUnavailableError(`Instagram answered ${what} unreadably.`);
    const expiresAt = new Date(
      this.now() + (parsed.data.expires_in ?? INSTAGRAM_LONG_LIVED_SECONDS) * 1000,
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

/** A refusal's Graph code: 190 (a token or code refused for good) and 400 OAuthException. */
function graphErrorCode(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (isRecord(body.error) && typeof body.error.code === 'number') return String(body.error.code);
  if (typeof body.error_type === 'string') return body.error_type;
  return undefined;
}

async function refusalCode(response: Response): Promise<string | undefined> {
  return graphErrorCode(await readOAuthJson(response, NETWORK));
}

async function readProfessionalAccount(
  deps: InstagramOAuthDeps,
  accessToken: string,
  signal: AbortSignal,
): Promise<NetworkProfile> {
  const url = new URL(`${deps.graphUrl}/${INSTAGRAM_GRAPH_VERSION}/me`);
  url.searchParams.set('fields', 'user_id,username,name,profile_picture_url');
  const parsed = Me.safeParse(
    await readProfileJson({ url, accessToken, network: NETWORK, signal, fetch: deps.fetch }),
  );
  if (!parsed.success) throw new OAuthUnavailableError('Instagram answered the profile read unreadably.');
  const me = parsed.data;
  return {
    // The professional account's id: the one /{ig-user-id}/media publishes under.
    networkUserId: me.user_id,
    handle: `@${me.username}`,
    displayName: me.name || me.username,
    ...(me.profile_picture_url && { avatarUrl: me.profile_picture_url }),
  };
}

function splitScopes(granted: string | string[]): string[] {
  return (Array.isArray(granted) ? granted : granted.split(/[\s,]+/)).filter(Boolean);
}
