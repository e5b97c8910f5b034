import * as z from 'zod';
import type { Account } from '../../domain/tenancy.js';
import { type LinkedInApi, readJson } from './api.js';
import { linkedInAppKindOf } from './apps.js';
import { failOnError, LinkedInStepFailed, rawCodeOf, readLinkedInError } from './errors.js';

/**
 * The roles that may post as a Page (networks/linkedin.md §1: ADMINISTRATOR,
 * DIRECT_SPONSORED_CONTENT_POSTER or the content admin, which organizationAcls names
 * CONTENT_ADMINISTRATOR and some pages CONTENT_ADMIN).
 */
export const POSTING_ROLES: ReadonlySet<string> = new Set([
  'ADMINISTRATOR',
  'DIRECT_SPONSORED_CONTENT_POSTER',
  'CONTENT_ADMINISTRATOR',
  'CONTENT_ADMIN',
]);

/** A page of the member's roles; a member with more Pages than this many pages is not usual. */
const ACL_PAGE_SIZE = 100;
const ACL_MAX_PAGES = 10;

const UserInfo = z.object({ sub: z.string().min(1) });
const Me = z.object({ id: z.string().min(1) });
const AclPage = z.object({
  elements: z.array(
    z.object({
      organization: z.string().optional(),
      role: z.string().optional(),
      state: z.string().optional(),
    }),
  ),
  paging: z.object({ total: z.number().int().optional() }).optional(),
});

interface AuthorContext {
  api: LinkedInApi;
  accessToken: string;
  signal: AbortSignal;
}

/**
 * `urn:li:person:{id}`: from the account's network user id, else asked of LinkedIn the way the
 * account's app can: userinfo's `sub` (member app, `openid`), `/v2/me`'s `id` (Community
 * Management app, `r_basicprofile`).
 */
export async function memberUrn(context: AuthorContext, account: Account): Promise<string> {
  if (account.networkUserId) return `urn:li:person:${account.networkUserId}`;
  const community = linkedInAppKindOf(account.networkApp) === 'community';
  const path = community ? '/v2/me' : '/v2/userinfo';
  const response = await context.api({ method: 'GET', path, ...token(context) });
  await failOnError(response, 'profile');
  const body = await readJson(response);
  const id = community ? Me.safeParse(body).data?.id : UserInfo.safeParse(body).data?.sub;
  if (!id) throw unreadable('the member look-up');
  return `urn:li:person:${id}`;
}

/**
 * Only a Community Management app holds the Page scopes: an account connected through the member
 * app cannot post as a Page, whatever its member's roles, and is told so without asking LinkedIn.
 */
export function assertMayPostAsPages(account: Account, organization: string): void {
  if (linkedInAppKindOf(account.networkApp) === 'community') return;
  throw new LinkedInStepFailed({
    kind: 'failed',
    failure: 'permanent',
    code: 'AUTHOR_NOT_ALLOWED',
    message: `The account was connected through LinkedIn's member app, which cannot post as ${organization}; connect it through the Community Management app (linkedinApp: community) to post as a Page.`,
  });
}

/**
 * Whether the token's member holds an approved posting role on the Page: organizationAcls'
 * roleAssignee finder lists the member's own roles (rw_organization_admin). A Page they may not
 * post for fails the post AUTHOR_NOT_ALLOWED before anything is uploaded.
 */
export async function assertMayPostFor(context: AuthorContext, organization: string): Promise<void> {
  for (let page = 0; page < ACL_MAX_PAGES; page += 1) {
    const response = await context.api({
      method: 'GET',
      path: '/rest/organizationAcls',
      query: {
        q: 'roleAssignee',
        state: 'APPROVED',
        start: String(page * ACL_PAGE_SIZE),
        count: String(ACL_PAGE_SIZE),
      },
      restliMethod: 'FINDER',
      ...token(context),
    });
    if (response.status === 403) {
      // The grant lacks the Page scopes (an account connected before they were asked for).
      const facts = await readLinkedInError(response);
      throw new LinkedInStepFailed({
        kind: 'failed',
        failure: 'permanent',
        code: 'AUTHOR_NOT_ALLOWED',
        message: `LinkedIn did not let the account read its Page roles, so it cannot post as ${organization}; reconnect it through the Community Management app to grant the Page permissions.`,
        platformRawCode: rawCodeOf(facts),
      });
    }
    await failOnError(response, 'author');
    const acls = AclPage.safeParse(await readJson(response));
    if (!acls.success) throw unreadable('the organization check');
    const allowed = acls.data.elements.some(
      (acl) =>
        acl.organization === organization &&
        acl.state === 'APPROVED' &&
        acl.role !== undefined &&
        POSTING_ROLES.has(acl.role),
    );
    if (allowed) return;
    const seen = (page + 1) * ACL_PAGE_SIZE;
    const total = acls.data.paging?.total;
    if (acls.data.elements.length < ACL_PAGE_SIZE || (total !== undefined && seen >= total)) break;
  }
  throw new LinkedInStepFailed({
    kind: 'failed',
    failure: 'permanent',
    code: 'AUTHOR_NOT_ALLOWED',
    message: `The account's member has no role on ${organization} that may post for it (administrator, content administrator or sponsored-content poster).`,
  });
}

function token(context: AuthorContext) {
  return { accessToken: context.accessToken, signal: context.signal };
}

export function unreadable(what: string): LinkedInStepFailed {
  return new LinkedInStepFailed({
    kind: 'failed',
    failure: 'transient',
    code: 'PLATFORM_ERROR',
    message: `LinkedIn answered ${what} unreadably.`,
  });
}
