import * as z from 'zod';
import { cleanMetricValues, POST_METRIC_NAMES, type PostMetricValues } from '../../domain/metrics.js';
import { readJson } from './api.js';
import { readLinkedInError } from './errors.js';
import { type FailedMetricsAnswer, failedMetrics, metricsFailureOf, noAnswer } from './metrics-failures.js';
import { LINKEDIN_PAGE_STATISTICS_SCOPE, LINKEDIN_SHARE_STATISTICS_FIELDS } from './metrics-fields.js';
import type { MetricsCall } from './metrics-member-posts.js';

const ShareStatistics = z.object({
  elements: z.array(
    z.object({
      share: z.string().optional(),
      ugcPost: z.string().optional(),
      totalShareStatistics: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});

function restliList(urns: readonly string[]): string {
  return `List(${urns.map(encodeURIComponent).join(',')})`;
}

/**
 * A Page's posts' lifetime numbers (Organization Share Statistics,
 * `organizationalEntityShareStatistics?q=organizationalEntity` with `shares=List(…)` and
 * `ugcPosts=List(…)`, no time intervals): up to LINKEDIN_PAGE_POSTS_PER_REQUEST posts a request.
 * A post the answer does not name is one LinkedIn no longer has. Needs `rw_organization_admin`
 * and the member's ADMINISTRATOR role on the Page (403 otherwise).
 */
export async function readPagePosts(
  call: MetricsCall,
  organization: string,
  urns: readonly string[],
): Promise<{ byUrn: Map<string, PostMetricValues> } | FailedMetricsAnswer> {
  const what = 'a Page’s post statistics';
  const shares = urns.filter((urn) => urn.startsWith('urn:li:share:'));
  const ugcPosts = urns.filter((urn) => urn.startsWith('urn:li:ugcPost:'));
  const lists = [
    ...(shares.length > 0 ? [`shares=${restliList(shares)}`] : []),
    ...(ugcPosts.length > 0 ? [`ugcPosts=${restliList(ugcPosts)}`] : []),
  ];
  if (call.signal.aborted) return noAnswer(what);
  let response: Response;
  try {
    response = await call.api({
      method: 'GET',
      path: '/rest/organizationalEntityShareStatistics',
      query: { q: 'organizationalEntity', organizationalEntity: organization },
      restliQuery: lists.join('&'),
      restliMethod: 'FINDER',
      accessToken: call.accessToken,
      signal: call.signal,
    });
  } catch {
    return noAnswer(what);
  }
  if (!response.ok) {
    const facts = await readLinkedInError(response);
    return metricsFailureOf(facts, { what, scope: LINKEDIN_PAGE_STATISTICS_SCOPE, nowMs: call.nowMs });
  }
  const parsed = ShareStatistics.safeParse(await readJson(response));
  if (!parsed.success) return failedMetrics('unavailable', `LinkedIn answered ${what} unreadably.`);
  const byUrn = new Map<string, PostMetricValues>();
  for (const element of parsed.data.elements) {
    const urn = element.share ?? element.ugcPost;
    if (!urn || !urns.includes(urn) || !element.totalShareStatistics) continue;
    const theirs = element.totalShareStatistics;
    const values = Object.fromEntries(
      Object.entries(LINKEDIN_SHARE_STATISTICS_FIELDS).map(([ours, field]) => [ours, theirs[field]]),
    );
    byUrn.set(urn, cleanMetricValues(values, POST_METRIC_NAMES));
  }
  return { byUrn };
}
