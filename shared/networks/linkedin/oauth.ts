import * as z from 'zod';
import { type NetworkProfile, type OAuthProvider, OAuthUnavailableError } from '../../ports/network-oauth.js';
import { makeAuthorizationCodeOAuth } from '../oauth/authorization-code.js';
import { refusesAllButClientErrors } from '../oauth/authorization-code-declaration.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { readProfileJson } from '../oauth/profile-request.js';
import type { DeclaredScopes } from '../oauth/scopes-to-ask.js';
import { LINKEDIN_COMMENT_SCOPES } from './comment-scopes.js';
import { LINKEDIN_POST_ANALYTICS_SCOPE, LINKEDIN_PROFILE_ANALYTICS_SCOPE } from './metrics-fields.js';

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
 * organizationAcls (`rw_organization_admin`) so a post names only a Page they may post for, and
 * the member's own numbers (docs/metrics.md): their posts' statistics (`r_member_postAnalytics`)
 * and follower count (`r_member_profileAnalytics`), which LinkedIn grants through this product only.
 */
export const LINKEDIN_COMMUNITY_SCOPES = [
  'r_basicprofile',
  'w_member_social',
  'w_organization_social',
  'r_organization_social',
  'rw_organization_admin',
  LINKEDIN_POST_ANALYTICS_SCOPE,
  LINKEDIN_PROFILE_ANALYTICS_SCOPE,
  ...LINKEDIN_COMMENT_SCOPES,
] as const;

/** The scopes each kind of app asks for: all its product grants that the code uses, no more. */
export const LINKEDIN_SCOPES_OF = {
  member: LINKEDIN_MEMBER_SCOPES,
  community: LINKEDIN_COMMUNITY_SCOPES,
} as const satisfies Readonly<Record<string, readonly string[]>>;

/**
 * Of each kind's scopes, those asked only for the metrics: a Community Management app without the
 * member analytics products connects without them (rw_organization_admin stays: posting as a Page
 * needs it too).
 */
export const LINKEDIN_METRICS_ONLY_SCOPES_OF = {
  member: [],
  community: [LINKEDIN_POST_ANALYTICS_SCOPE, LINKEDIN_PROFILE_ANALYTICS_SCOPE],
} as const satisfies Readonly<Record<keyof typeof LINKEDIN_SCOPES_OF, readonly string[]>>;

/**
 * Of each kind's scopes, those asked only for first comments: a Community Management app whose
 * operator says it lacks them (LINKEDIN_COMMUNITY_ASK_COMMENT_SCOPES=false) connects without them,
 * and its posts take no first comment. A member app has none to ask.
 */
export const LINKEDIN_COMMENT_ONLY_SCOPES_OF = {
  member: [],
  community: LINKEDIN_COMMENT_SCOPES,
} as const satisfies Readonly<Record<keyof typeof LINKEDIN_SCOPES_OF, readonly string[]>>;

/** The kinds of LinkedIn app (apps.ts names them for the connector). */
type LinkedInAppKind = keyof typeof LINKEDIN_SCOPES_OF;

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
 * the app with its client secret in the token request's form. Its answers list the granted scopes
 * comma-separated and say how long the refresh token lives (`refresh_token_expires_in`, counting
 * from the first grant: an answer without it keeps the old). Only apps approved for programmatic
 * refresh get a refresh token; without one the account is reconnected before its token expires.
 */
export function makeLinkedInOAuth(deps: LinkedInOAuthDeps): OAuthProvider {
  const kind = deps.kind ?? 'member';
  const declared: DeclaredScopes = {
    scopes: LINKEDIN_SCOPES_OF[kind],
    metricsOnlyScopes: LINKEDIN_METRICS_ONLY_SCOPES_OF[kind],
    commentOnlyScopes: LINKEDIN_COMMENT_ONLY_SCOPES_OF[kind],
  };
  return makeAuthorizationCodeOAuth(
    {
      network: NETWORK,
      ...declared,
      usesPkce: false,
      authorize: { url: `${deps.oauthUrl}/authorization` },
      token: {
        url: `${deps.oauthUrl}/accessToken`,
        clientAuthentication: 'form',
        grantedScopeSeparator: /[\s,]+/,
        // LinkedIn grants all that was asked or nothing: an answer without `scope` granted these.
        withoutScope: 'asked',
        refreshLifetimeField: 'refresh_token_expires_in',
        // A code LinkedIn refuses (used, expired, for another redirect) cannot be tried again; our
        // own app being refused (invalid_client) is a configuration problem, not the member's.
        refusesGrant: refusesAllButClientErrors,
      },
      revoke: { url: `${deps.oauthUrl}/revoke`, tokens: (tokens) => [tokens.accessToken] },
      readProfile: (accessToken, signal) => readLinkedInProfile(deps, kind, accessToken, signal),
    },
    deps,
  );
}

/**
 * The member app reads the OpenID userinfo: `sub` is the member id (their URN is
 * `urn:li:person:{sub}`), `name` the display name and the handle (LinkedIn has no @handle, and
 * the vanity name needs r_basicprofile), `picture` the avatar. A Community Management app has
 * no `openid`: it reads `/v2/me` (r_basicprofile), whose `id` is the member id and whose vanity
 * name is the handle; its picture is an asset URN, not an address, so there is no avatar.
 * LinkedIn's member ids are per app: the same person through the other kind of app is another
 * network user, so another account.
 */
async function readLinkedInProfile(
  deps: LinkedInOAuthDeps,
  kind: LinkedInAppKind,
  accessToken: string,
  signal: AbortSignal,
): Promise<NetworkProfile> {
  const body = await readProfileJson({
    url: `${deps.apiUrl}${kind === 'member' ? '/v2/userinfo' : '/v2/me'}`,
    accessToken,
    network: NETWORK,
    signal,
    fetch: deps.fetch,
  });
  if (kind === 'community') {
    const parsed = Me.safeParse(body);
    if (!parsed.success) throw new OAuthUnavailableError('LinkedIn answered the profile read unreadably.');
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
}
