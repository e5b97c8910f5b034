import * as z from 'zod';
import {
  type GrantedAccount,
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
import { readOAuthJson, unavailableWhenUnreachable } from '../oauth/unreachable.js';
import { facebookFirstComment } from './first-comment.js';
import { FACEBOOK_GRAPH_VERSION } from './limits.js';

/**
 * What publishing to a Page as the Page needs (facebook-pages.md §1): the Pages the person picked
 * (`pages_show_list`), posting (`pages_manage_posts`, which Meta grants with
 * `pages_read_engagement`), videos and reels (`publish_video`), and first comments
 * (`pages_manage_engagement`, first-comment.ts).
 */
export const FACEBOOK_SCOPES: readonly string[] = [
  'pages_show_list',
  'pages_manage_posts',
  'pages_read_engagement',
  'publish_video',
  ...facebookFirstComment.scopes,
];

/** The Page task that lets a person publish as the Page (§1). */
export const FACEBOOK_PUBLISH_TASK = 'CREATE_CONTENT';
/** A person's Pages are read 100 at a time; ten pages of them is more than any person manages. */
const PAGES_PER_READ = 100;
const MAX_PAGE_READS = 10;

export interface FacebookOAuthDeps extends OAuthClientDeps {
  /** FACEBOOK_AUTHORIZE_URL: the consent page (www.facebook.com/v24.0/dialog/oauth). */
  authorizeUrl: string;
  /** FACEBOOK_GRAPH_URL: the code exchange, the long-lived exchange, the permissions, the Pages. */
  graphUrl: string;
}

const NETWORK = 'Facebook';

const Token = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive().optional(),
});
const Permissions = z.object({
  data: z.array(z.object({ permission: z.string(), status: z.string() })),
});
const Picture = z.object({ data: z.object({ url: z.string().optional() }).optional() }).optional();
const Me = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string().min(1),
  username: z.string().optional(),
  picture: Picture,
});
const Pages = z.object({
  data: z.array(
    z.object({
      id: z.union([z.string(), z.number()]).transform(String),
      name: z.string().min(1),
      username: z.string().optional(),
      access_token: z.string().min(1).optional(),
      tasks: z.array(z.string()).optional(),
      picture: Picture,
    }),
  ),
  paging: z
    .object({ cursors: z.object({ after: z.string().optional() }).optional(), next: z.string().optional() })
    .optional(),
});

/**
 * Facebook Login for Pages (facebook-pages.md §1): a standard consent page (scopes
 * comma-separated) where the person picks the Pages the app may use, and a code exchange at the
 * Graph host (the app secret in the form). The code's short-lived user token is at once exchanged
 * for a long-lived one (`fb_exchange_token`, about 60 days), its grants read (`/me/permissions`:
 * the person may untick some), and each picked Page's token read from `/me/accounts`: a Page token
 * taken from a long-lived user token does not expire, and has no refresh. So there is no refresh:
 * a Page token Meta refuses (190) means the Page must be connected again. One connect yields one
 * account per Page the person may create content on (readAccounts).
 */
export function makeFacebookOAuth(deps: FacebookOAuthDeps): OAuthProvider {
  const graph = `${deps.graphUrl}/${FACEBOOK_GRAPH_VERSION}`;
  const get = async (url: URL, accessToken: string | undefined, signal: AbortSignal): Promise<Response> => {
    try {
      return await networkFetch(
        url,
        { method: 'GET', ...(accessToken && { headers: { Authorization: `OAuth ${accessToken}` } }), signal },
        deps.fetch,
      );
    } catch (error) {
      throw unavailableWhenUnreachable(error, NETWORK);
    }
  };

  async function longLived(body: unknown, context: TokenAnswerContext): Promise<TokenSet> {
    const short = Token.safeParse(body);
    if (!short.success) throw new OAuthUnavailableError('Facebook answered the code exchange unreadably.');
    const url = new URL(`${graph}/oauth/access_token`);
    url.searchParams.set('grant_type', 'fb_exchange_token');
    url.searchParams.set('client_id', context.app.clientId);
    url.searchParams.set('client_secret', context.app.clientSecret);
    url.searchParams.set('fb_exchange_token', short.data.access_token);
    const exchanged = await get(url, undefined, context.signal);
    if (!exchanged.ok) {
      const code =
        exchanged.status < 500 ? graphErrorCode(await readOAuthJson(exchanged, NETWORK)) : undefined;
      throw new OAuthUnavailableError(
        `Facebook refused the long-lived token exchange (HTTP ${exchanged.status}).`,
        code,
      );
    }
    const long = Token.safeParse(await readOAuthJson(exchanged, NETWORK));
    if (!long.success)
      throw new OAuthUnavailableError('Facebook answered the long-lived token exchange unreadably.');
    const scopes = await grantedScopes(long.data.access_token, context.signal);
    return {
      accessToken: long.data.access_token,
      ...(long.data.expires_in && {
        expiresAt: new Date(context.issuedAt + long.data.expires_in * 1000).toISOString(),
      }),
      scopes,
    };
  }

  async function grantedScopes(accessToken: string, signal: AbortSignal): Promise<string[]> {
    const response = await get(new URL(`${graph}/me/permissions`), accessToken, signal);
    if (!response.ok) {
      await response.body?.cancel();
      throw new OAuthUnavailableError(`Facebook refused the permissions read (HTTP ${response.status}).`);
    }
    const parsed = Permissions.safeParse(await readOAuthJson(response, NETWORK));
    if (!parsed.success)
      throw new OAuthUnavailableError('Facebook answered the permissions read unreadably.');
    return parsed.data.data.filter((grant) => grant.status === 'granted').map((grant) => grant.permission);
  }

  async function readAccounts(tokens: TokenSet, signal: AbortSignal): Promise<readonly GrantedAccount[]> {
    // Without posting rights no Page can be published to, whatever its tasks.
    if (!tokens.scopes.includes('pages_manage_posts')) return [];
    const accounts: GrantedAccount[] = [];
    let after: string | undefined;
    for (let read = 0; read < MAX_PAGE_READS; read++) {
      const url = new URL(`${graph}/me/accounts`);
      url.searchParams.set('fields', 'id,name,username,access_token,tasks,picture');
      url.searchParams.set('limit', String(PAGES_PER_READ));
      if (after) url.searchParams.set('after', after);
      const response = await get(url, tokens.accessToken, signal);
      if (!response.ok) {
        await response.body?.cancel();
        throw new OAuthUnavailableError(`Facebook refused the Pages read (HTTP ${response.status}).`);
      }
      const parsed = Pages.safeParse(await readOAuthJson(response, NETWORK));
      if (!parsed.success) throw new OAuthUnavailableError('Facebook answered the Pages read unreadably.');
      for (const page of parsed.data.data) {
        if (!page.access_token || !page.tasks?.includes(FACEBOOK_PUBLISH_TASK)) continue;
        const avatarUrl = page.picture?.data?.url;
        accounts.push({
          profile: {
            networkUserId: page.id,
            handle: page.username ? `@${page.username}` : page.name,
            displayName: page.name,
            ...(avatarUrl && { avatarUrl }),
          },
          tokens: { accessToken: page.access_token, scopes: [...tokens.scopes] },
        });
      }
      // A cursor is followed only while Meta says there is a next page; its `next` URL is not.
      after = parsed.data.paging?.next ? parsed.data.paging.cursors?.after : undefined;
      if (!after) break;
    }
    return accounts;
  }

  const provider = makeAuthorizationCodeOAuth(
    {
      network: NETWORK,
      scopes: FACEBOOK_SCOPES,
      commentOnlyScopes: facebookFirstComment.scopes,
      usesPkce: false,
      authorize: { url: deps.authorizeUrl, scopeDelimiter: ',' },
      token: {
        url: `${graph}/oauth/access_token`,
        clientAuthentication: 'form',
        withoutScope: 'asked',
        errorCode: graphErrorCode,
        // A code Meta refuses (used, expired, another redirect) is a 400 OAuthException (code 100).
        refusesGrant: (error) => error.status === 400,
        readAnswer: (body, context) => longLived(body, context),
      },
      refresh: false,
      readProfile: (accessToken, signal) => readProfile(accessToken, signal),
    },
    deps,
  );

  /** `GET /me`: the person with a user token, the Page with a Page token. */
  async function readProfile(accessToken: string, signal: AbortSignal): Promise<NetworkProfile> {
    const url = new URL(`${graph}/me`);
    url.searchParams.set('fields', 'id,name,username,picture');
    const parsed = Me.safeParse(
      await readProfileJson({ url, accessToken, network: NETWORK, signal, fetch: deps.fetch }),
    );
    if (!parsed.success) throw new OAuthUnavailableError('Facebook answered the profile read unreadably.');
    const me = parsed.data;
    const avatarUrl = me.picture?.data?.url;
    return {
      networkUserId: me.id,
      handle: me.username ? `@${me.username}` : me.name,
      displayName: me.name,
      ...(avatarUrl && { avatarUrl }),
    };
  }

  return { ...provider, readAccounts };
}

/** A refusal's Graph code (190 for a token, 100 for a bad code). */
function graphErrorCode(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (isRecord(body.error) && typeof body.error.code === 'number') return String(body.error.code);
  return undefined;
}
