import * as z from 'zod';
import { cleanMetricValues, POST_METRIC_NAMES, type PostMetricValues } from '../../domain/metrics.js';
import { type LinkedInApi, readJson } from './api.js';
import { readLinkedInError } from './errors.js';
import { type FailedMetricsAnswer, failedMetrics, metricsFailureOf, noAnswer } from './metrics-failures.js';
import { LINKEDIN_POST_ANALYTICS_SCOPE, LINKEDIN_POST_METRIC_TYPES } from './metrics-fields.js';

/** A finder's answer: the statistic is the first element's `count` (none: not reported). */
const PostStatistic = z.object({ elements: z.array(z.object({ count: z.number().optional() })) });

/** The posts LinkedIn's analytics read: shares and ugcPosts, numeric 64-bit ids. */
export const POST_URN = /^urn:li:(share|ugcPost):([0-9]{1,19})$/;

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

export interface MetricsCall {
  api: LinkedInApi;
  accessToken: string;
  signal: AbortSignal;
  nowMs: number;
}

/**
 * One member post's numbers: `memberCreatorPostAnalytics` with the `entity` finder, one
 * `queryType` a request (six), TOTAL aggregation, one after the other (LinkedIn's limits are per
 * day; nothing gains from bursts). 404: LinkedIn no longer has the post.
 */
export async function readMemberPost(
  call: MetricsCall,
  entity: string,
): Promise<PostMetricValues | 'not_found' | FailedMetricsAnswer> {
  const what = 'a post’s statistics';
  const values: Partial<Record<string, unknown>> = {};
  for (const [ours, queryType] of Object.entries(LINKEDIN_POST_METRIC_TYPES)) {
    if (call.signal.aborted) return noAnswer(what);
    let response: Response;
    try {
      response = await call.api({
        method: 'GET',
        path: '/rest/memberCreatorPostAnalytics',
        query: { q: 'entity' },
        restliQuery: `entity=${entity}&queryType=${queryType}&aggregation=TOTAL`,
        restliMethod: 'FINDER',
        accessToken: call.accessToken,
        signal: call.signal,
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
      return metricsFailureOf(facts, { what, scope: LINKEDIN_POST_ANALYTICS_SCOPE, nowMs: call.nowMs });
    }
    const parsed = PostStatistic.safeParse(await readJson(response));
    if (!parsed.success) return failedMetrics('unavailable', `LinkedIn answered ${what} unreadably.`);
    values[ours] = parsed.data.elements[0]?.count;
  }
  return cleanMetricValues(values, POST_METRIC_NAMES);
}
