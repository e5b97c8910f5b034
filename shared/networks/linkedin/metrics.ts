import * as z from 'zod';
import {
  ACCOUNT_METRIC_NAMES,
  cleanMetricValues,
  POST_METRIC_NAMES,
  type PostMetricValues,
} from '../../domain/metrics.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../ports/connector.js';
import { type LinkedInApi, readJson } from './api.js';
import { readLinkedInError } from './errors.js';
import { type FailedMetricsAnswer, failedMetrics, metricsFailureOf, noAnswer } from './metrics-failures.js';
import {
  LINKEDIN_POST_ANALYTICS_SCOPE,
  LINKEDIN_POST_METRIC_TYPES,
  LINKEDIN_PROFILE_ANALYTICS_SCOPE,
} from './metrics-fields.js';

/** A finder's answer: the statistic is the first element's `count` (none: not reported). */
const PostStatistic = z.object({ elements: z.array(z.object({ count: z.number().optional() })) });
const FollowersCount = z.object({
  elements: z.array(z.object({ memberFollowersCount: z.number().optional() })),
});

/** The posts the Member Post Analytics API reads: shares and ugcPosts, numeric 64-bit ids. */
const POST_URN = /^urn:li:(share|ugcPost):([0-9]{1,19})$/;

/**
 * The `entity` of the member finder in Rest.li 2.0 form: the union member (`share` or `ugc`) and
 * the URN, its colons encoded inside the unencoded parentheses.
 */
export function analyticsEntity(platformPostId: string): string | undefined {
  const match = POST_URN.exec(platformPostId);
  if (!match) return undefined;
  const member = match[1] === 'share' ? 'share' : 'ugc';
  return `(${member}:${encodeURIComponent(platformPostId)})`;
}

type Deps = { api: LinkedInApi; now: () => number };

/** Whether the account's recorded grant lacks the scope (an account recording none is tried). */
function lacking(scopes: readonly string[] | undefined, scope: string): boolean {
  return scopes !== undefined && !scopes.includes(scope);
}

function missingScope(scope: string, what: string): FailedMetricsAnswer {
  return failedMetrics(
    'missing_scopes',
    `Reading ${what} needs LinkedIn's ${scope}, which this account was not granted: LinkedIn gives it to Community Management apps only (reconnect with linkedinApp community).`,
    { missingScopes: [scope] },
  );
}

/**
 * A member's own posts' numbers (docs/metrics.md "LinkedIn"): `memberCreatorPostAnalytics` with
 * the `entity` finder, one post and one `queryType` a request, TOTAL aggregation, so six requests
 * a post, made one after the other (LinkedIn's limits are per day; nothing gains from bursts).
 * A post LinkedIn no longer has (404) is listed as not found and the rest read on; any other
 * refusal ends the whole read with its outcome. Page posts are not read here (see the docs).
 */
export function makeLinkedInPostMetrics(deps: Deps) {
  return async function readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    const what = 'the posts’ statistics';
    if (!request.credentials)
      return failedMetrics('auth_failed', 'The LinkedIn account has no access token.');
    if (lacking(request.account.scopes, LINKEDIN_POST_ANALYTICS_SCOPE))
      return missingScope(LINKEDIN_POST_ANALYTICS_SCOPE, what);
    const byPost: Record<string, PostMetricValues> = {};
    const notFound: string[] = [];
    for (const target of request.posts) {
      const entity = analyticsEntity(target.platformPostId);
      if (!entity) {
        // Not a post URN LinkedIn could have made for this account: nothing to read, ever.
        notFound.push(target.postId);
        continue;
      }
      const read = await readOnePost(deps, request, entity);
      if (read === 'not_found') notFound.push(target.postId);
      else if ('kind' in read) return read;
      else byPost[target.postId] = read;
    }
    return { kind: 'metrics', byPost, notFound };
  };
}

async function readOnePost(
  deps: Deps,
  request: PostMetricsRequest,
  entity: string,
): Promise<PostMetricValues | 'not_found' | FailedMetricsAnswer> {
  const what = 'a post’s statistics';
  const values: Partial<Record<string, unknown>> = {};
  for (const [ours, queryType] of Object.entries(LINKEDIN_POST_METRIC_TYPES)) {
    if (request.signal.aborted) return noAnswer(what);
    let response: Response;
    try {
      response = await deps.api({
        method: 'GET',
        path: '/rest/memberCreatorPostAnalytics',
        query: { q: 'entity' },
        restliQuery: `entity=${entity}&queryType=${queryType}&aggregation=TOTAL`,
        restliMethod: 'FINDER',
        accessToken: request.credentials?.accessToken ?? '',
        signal: request.signal,
      });
    } catch {
      return noAnswer(what);
    }
    if (response.status === 404) {
      await response.arrayBuffer().catch(() => undefined);
      return 'not_found';
    }
    if (!response.ok) {
      const facts = await readLinkedInError(response);
      return metricsFailureOf(facts, { what, scope: LINKEDIN_POST_ANALYTICS_SCOPE, nowMs: deps.now() });
    }
    const parsed = PostStatistic.safeParse(await readJson(response));
    if (!parsed.success) return failedMetrics('unavailable', `LinkedIn answered ${what} unreadably.`);
    values[ours] = parsed.data.elements[0]?.count;
  }
  return cleanMetricValues(values, POST_METRIC_NAMES);
}

/** The member's follower count: one `memberFollowersCount?q=me` (lifetime). */
export function makeLinkedInAccountMetrics(deps: Deps) {
  return async function readAccountMetrics(request: AccountMetricsRequest): Promise<AccountMetricsAnswer> {
    const what = 'the member’s follower count';
    if (!request.credentials)
      return failedMetrics('auth_failed', 'The LinkedIn account has no access token.');
    if (lacking(request.account.scopes, LINKEDIN_PROFILE_ANALYTICS_SCOPE))
      return missingScope(LINKEDIN_PROFILE_ANALYTICS_SCOPE, what);
    let response: Response;
    try {
      response = await deps.api({
        method: 'GET',
        path: '/rest/memberFollowersCount',
        query: { q: 'me' },
        restliMethod: 'FINDER',
        accessToken: request.credentials.accessToken,
        signal: request.signal,
      });
    } catch {
      return noAnswer(what);
    }
    if (!response.ok) {
      const facts = await readLinkedInError(response);
      return metricsFailureOf(facts, { what, scope: LINKEDIN_PROFILE_ANALYTICS_SCOPE, nowMs: deps.now() });
    }
    const parsed = FollowersCount.safeParse(await readJson(response));
    if (!parsed.success) return failedMetrics('unavailable', `LinkedIn answered ${what} unreadably.`);
    const followers = parsed.data.elements[0]?.memberFollowersCount;
    return { kind: 'metrics', metrics: cleanMetricValues({ followers }, ACCOUNT_METRIC_NAMES) };
  };
}
