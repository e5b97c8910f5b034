import type { Context } from 'hono';
import type { MetricsFailureKind, PostMetricName, PostMetricValues } from '../../domain/metrics.js';
import type { Platform } from '../../domain/platforms.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { empty, type Html, html } from '../html.js';
import { metricCharts } from './metrics-chart.js';
import { type MetricsOutcome, type MetricsResource, readMetrics } from './metrics-read.js';
import { NETWORK_NAMES } from './posts-format.js';
import { utcTime } from './time.js';

/** A post's metrics as `GET …/posts/{post_id}/metrics` answers them (getPostMetrics). */
export interface PostMetricsResource extends MetricsResource<PostMetricName, PostMetricValues> {
  postId: string;
}

export type PostMetricsOutcome = MetricsOutcome<PostMetricsResource>;

/** The post's metrics through the API's read (which never calls the network). */
export function readPostMetrics(
  c: Context<DashboardEnv>,
  workspaceId: string,
  postId: string,
): Promise<PostMetricsOutcome> {
  return readMetrics(c, 'getPostMetrics', { workspace_id: workspaceId, post_id: postId });
}

const accountsLink = (workspaceId: string) =>
  html`<a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/accounts">Accounts</a>`;

export const scopesOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((scope): scope is string => typeof scope === 'string') : [];

/** The missing permissions in words, with where to grant them (a post's metrics or an account's). */
export function missingScopes(workspaceId: string, scopes: readonly string[]): Html {
  const named = scopes.length > 0 ? html` (${scopes.join(', ')})` : empty;
  return html`The account lacks the permissions its network asks for metrics${named}: reconnect it under ${accountsLink(workspaceId)} to grant them.`;
}

/** Why there are no numbers, in words, from the 409's code and its members. */
function refusalInWords(
  workspaceId: string,
  platform: Platform,
  refusal: Extract<PostMetricsOutcome, { ok: false }>,
): Html {
  const network = NETWORK_NAMES[platform];
  switch (refusal.code) {
    case 'metrics_not_collected_yet': {
      const due =
        typeof refusal.fields.nextCollectionAt === 'string' ? refusal.fields.nextCollectionAt : undefined;
      return due
        ? html`Not collected yet: the first reading is due at ${utcTime(due)}.`
        : html`Not collected yet, and no collection is scheduled.`;
    }
    case 'metrics_missing_scopes':
      return missingScopes(workspaceId, scopesOf(refusal.fields.missingScopes));
    case 'metrics_unavailable':
      if (refusal.fields.reason === 'not_collected_by_workspace')
        return html`This workspace does not collect ${network}'s metrics: its metrics setting leaves the network out.`;
      if (refusal.fields.reason === 'deleted_at_network')
        return html`${network} no longer has the post, and no metrics were read before it went.`;
      return html`${network} gives no metrics for this post through this service.`;
    default:
      return html`${refusal.message}`;
  }
}

/** What went wrong with the last collection, when it did, and what happens next. */
function lastProblem(workspaceId: string, problem: PostMetricsResource['problem']): Html {
  if (!problem) return empty;
  const at = utcTime(problem.at);
  const words: Record<MetricsFailureKind, Html> = {
    missing_scopes: missingScopes(workspaceId, problem.missingScopes ?? []),
    not_found: html`The network no longer has the post: collection has stopped. The numbers below are the last it gave.`,
    rate_limited: html`The network asked the service to wait; the next collection tries again.`,
    auth_failed: html`The network refused the account's token: reconnect it under ${accountsLink(workspaceId)}.`,
    unavailable: html`The network did not answer; the next collection tries again.`,
  };
  return html`<p><strong>The last collection, at ${at}, read nothing.</strong> ${words[problem.failure]}</p>`;
}

function nextCollection(nextCollectionAt: string | null): Html {
  return nextCollectionAt
    ? html`<p>Next collection: ${utcTime(nextCollectionAt)}.</p>`
    : html`<p>Collection has ended: no further reading is scheduled.</p>`;
}

/**
 * A published post's "Metrics" section: a chart and a table per metric its network reports, the
 * next collection, the last collection's problem; or, without numbers, why, in words.
 */
export function metricsSection(workspaceId: string, platform: Platform, outcome: PostMetricsOutcome): Html {
  const body = outcome.ok
    ? html`<p>Read from ${NETWORK_NAMES[platform]}; the latest at ${utcTime(outcome.metrics.collectedAt)}.</p>${nextCollection(
        outcome.metrics.nextCollectionAt,
      )}${lastProblem(workspaceId, outcome.metrics.problem)}${metricCharts(outcome.metrics.history, 'metric')}`
    : html`<p>${refusalInWords(workspaceId, platform, outcome)}</p>`;
  return html`<section aria-labelledby="metrics-heading"><h2 id="metrics-heading">Metrics</h2>${body}</section>`;
}
