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
import { INSTAGRAM_GRAPH_VERSION } from './api.js';
import { instagramFirstComment } from './first-comment.js';
import { instagramMetrics } from './metrics-fields.js';

/**
 * Instagram API with Instagram Login: who the account is, publishing as it (instagram.md §1), its
 * posts' insights (the metrics' scopes, metrics-fields.ts), and first comments (first-comment.ts).
 */
export const INSTAGRAM_SCOPES: readonly string[] = [
  'instagram_business_basic',
  'instagram_business_content_publish',
  ...instagramMetrics.scopes,
  ...instagramFirstComment.scopes,
];

/** What the connect asks for and which of it serves only the metrics or only first comments. */
const INSTAGRAM_DECLARED_SCOPES = {
  scopes: INSTAGRAM_SCOPES,
  metricsOnlyScopes: instagramMetrics.scopes,
  commentOnlyScopes: instagramFirstComment.scopes,
};

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
  const tokens = new LongLivedTokens({
    network: NETWORK,
    graphUrl: deps.graphUrl,
    grantTypes: { exchange: 'ig_exchange_token', refresh: 'ig_refresh_token' },
    lifetimeSeconds: INSTAGRAM_LONG_LIVED_SECONDS,
    refreshMinAgeMs: INSTAGRAM_REFRESH_MIN_AGE_MS,
    errorCode: graphErrorCode,
    fetch: deps.fetch,
    now: deps.now ?? Date.now,
  });
  return makeAuthorizationCodeOAuth(
    {
      network: NETWORK,
      scopes: INSTAGRAM_SCOPES,
      metricsOnlyScopes: instagramMetrics.scopes,
      commentOnlyScopes: instagramFirstComment.scopes,
      usesPkce: false,
      authorize: { url: deps.authorizeUrl, scopeDelimiter: ',' },
      token: {
        url: `${deps.oauthUrl}/access_token`,
        clientAuthentication: 'form',
        withoutScope: 'asked',
        errorCode: graphErrorCode,
        // A code Instagram refuses (used, expired, another redirect) cannot be tried again.
        refusesGrant: (error) => error.status === 400,
        readAnswer: (body, context) => fromShortLived(tokens, body, context),
      },
      refresh: (held, signal) => tokens.refresh(held, signal),
      readProfile: (accessToken, signal) => readProfessionalAccount(deps, accessToken, signal),
    },
    deps,
  );
}

/** A refusal's Graph code: 190 (a token or code refused for good) and 400 OAuthException. */
function graphErrorCode(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (isRecord(body.error) && typeof body.error.code === 'number') return String(body.error.code);
  if (typeof body.error_type === 'string') return body.error_type;
  return undefined;
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

/** The code exchange's short-lived token, at once exchanged for a long-lived one. */
async function fromShortLived(
  tokens: LongLivedTokens,
  body: unknown,
  context: TokenAnswerContext,
): Promise<TokenSet> {
  const answer = ShortLived.safeParse(isRecord(body) && Array.isArray(body.data) ? body.data[0] : body);
  if (!answer.success) throw new OAuthUnavailableError('Instagram answered the code exchange unreadably.');
  const granted = answer.data.permissions;
  // Without `permissions`, what this app asked for (scopes-to-ask.ts).
  const scopes =
    granted === undefined ? scopesToAsk(INSTAGRAM_DECLARED_SCOPES, context.app) : splitScopes(granted);
  return tokens.exchange(answer.data.access_token, scopes, context);
}

function splitScopes(granted: string | string[]): string[] {
  return (Array.isArray(granted) ? granted : granted.split(/[\s,]+/)).filter(Boolean);
}
