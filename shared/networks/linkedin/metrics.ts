import * as z from 'zod';
import { ACCOUNT_METRIC_NAMES, cleanMetricValues, type PostMetricValues } from '../../domain/metrics.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  MetricsTarget,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../ports/connector.js';
import { inBatches } from '../in-batches.js';
import { type LinkedInApi, readJson } from './api.js';
import { readLinkedInError } from './errors.js';
import { type FailedMetricsAnswer, failedMetrics, metricsFailureOf, noAnswer } from './metrics-failures.js';
import {
  LINKEDIN_PAGE_POSTS_PER_REQUEST,
  LINKEDIN_PAGE_STATISTICS_SCOPE,
  LINKEDIN_POST_ANALYTICS_SCOPE,
  LINKEDIN_PROFILE_ANALYTICS_SCOPE,
} from './metrics-fields.js';
import { analyticsEntity, type MetricsCall, POST_URN, readMemberPost } from './metrics-member-posts.js';
import { readPagePosts } from './metrics-page-posts.js';
import { linkedInPageOf } from './metrics-scopes.js';

const FollowersCount = z.object({
  elements: z.array(z.object({ memberFollowersCount: z.number().optional() })),
});

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
 * How the posts did (docs/metrics.md "LinkedIn"): a member's own post through the Member Post
 * Analytics API (metrics-member-posts.ts), a Page's through its Organization Share Statistics,
 * several a request (metrics-page-posts.ts). A post LinkedIn no longer has is listed as not found
 * and the rest read on; any other refusal ends the whole read with its outcome.
 */
export function makeLinkedInPostMetrics(deps: Deps) {
  return async function readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    if (!request.credentials)
      return failedMetrics('auth_failed', 'The LinkedIn account has no access token.');
    const call: MetricsCall = {
      api: deps.api,
      accessToken: request.credentials.accessToken,
      signal: request.signal,
      nowMs: deps.now(),
    };
    const byPost: Record<string, PostMetricValues> = {};
    const notFound: string[] = [];
    const memberPosts: MetricsTarget[] = [];
    const pagePosts = new Map<string, MetricsTarget[]>();
    for (const target of request.posts) {
      const page = linkedInPageOf(target.platformOptions);
      // Not a post URN LinkedIn could have made for this account: nothing to read, ever.
      if (!POST_URN.test(target.platformPostId)) notFound.push(target.postId);
      else if (page) pagePosts.set(page, [...(pagePosts.get(page) ?? []), target]);
      else memberPosts.push(target);
    }
    const scopes = request.account.scopes;
    if (memberPosts.length > 0 && lacking(scopes, LINKEDIN_POST_ANALYTICS_SCOPE))
      return missingScope(LINKEDIN_POST_ANALYTICS_SCOPE, 'the member’s post statistics');
    if (pagePosts.size > 0 && lacking(scopes, LINKEDIN_PAGE_STATISTICS_SCOPE))
      return missingScope(LINKEDIN_PAGE_STATISTICS_SCOPE, 'a Page’s post statistics');

    for (const target of memberPosts) {
      const entity = analyticsEntity(target.platformPostId) ?? '';
      const read = await readMemberPost(call, entity);
      if (read === 'not_found') notFound.push(target.postId);
      else if ('kind' in read) return read;
      else byPost[target.postId] = read;
    }
    for (const [page, targets] of pagePosts) {
      for (const chunk of inBatches(targets, LINKEDIN_PAGE_POSTS_PER_REQUEST)) {
        const read = await readPagePosts(
          call,
          page,
          chunk.map((target) => target.platformPostId),
        );
        if ('kind' in read) return read;
        for (const target of chunk) {
          const values = read.byUrn.get(target.platformPostId);
          if (values) byPost[target.postId] = values;
          else notFound.push(target.postId);
        }
      }
    }
    return { kind: 'metrics', byPost, notFound };
  };
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
