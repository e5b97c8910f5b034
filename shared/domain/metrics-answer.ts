import type { MetricsFailureKind, MetricsReading, PostMetricsState, PostMetricValues } from './metrics.js';
import type { MetricsRefusal } from './metrics-errors.js';
import type { Post } from './posts.js';

/** What the metrics read answers for a published post with at least one reading. */
export interface PostMetricsView {
  postId: string;
  platform: Post['platform'];
  /** The latest reading's time and numbers. */
  collectedAt: string;
  metrics: PostMetricValues;
  /** Every reading, oldest first; the last is the latest. */
  history: MetricsReading<PostMetricValues>[];
  nextCollectionAt: string | null;
  problem: { failure: MetricsFailureKind; at: string; missingScopes?: string[] } | null;
}

/** What decides an answer beside the post itself. */
export interface MetricsCircumstances {
  /** The post's network gives metrics (its definition declares them). */
  networkGivesMetrics: boolean;
  /** The workspace's setting collects that network. */
  workspaceCollects: boolean;
  /** The metrics permissions the account's token lacks (none on sandbox accounts). */
  missingScopes: readonly string[];
}

/**
 * A post's metrics, or why there are none. Readings already taken are always answered, with the
 * last collection's problem beside them (a setting turned off later does not hide numbers read
 * before). Without a reading, the first cause that applies is the answer: a network that gives
 * none, a workspace that does not collect it, a post gone at the network, missing permissions;
 * otherwise the first collection is still to come.
 */
export async function answerPostMetrics(
  post: Post,
  /** Read only when there is no reading to answer (a workspace and an account to look up). */
  circumstancesOf: () => Promise<MetricsCircumstances>,
): Promise<{ view: PostMetricsView } | { refusal: MetricsRefusal }> {
  if (post.status !== 'published')
    return { refusal: { code: 'post_not_published', postStatus: post.status } };
  const state = post.metrics;
  const readings = state?.readings ?? [];
  const latest = readings.at(-1);
  const nextCollectionAt = state?.collection?.nextCollectAt ?? null;
  if (latest) {
    return {
      view: {
        postId: post.postId,
        platform: post.platform,
        collectedAt: latest.collectedAt,
        metrics: latest.metrics,
        history: readings,
        nextCollectionAt,
        problem: problemOf(state?.problem),
      },
    };
  }
  return { refusal: refusalWithoutReading(state?.problem, await circumstancesOf(), nextCollectionAt) };
}

/**
 * Why a post or an account has no reading to answer: the first cause that applies (a network that
 * gives none, a workspace that does not collect it, the post gone at the network, missing
 * permissions, as the last collection said or the account's grant shows); otherwise the first
 * collection is still to come.
 */
export function refusalWithoutReading(
  problem: MetricsProblem | undefined,
  circumstances: MetricsCircumstances,
  nextCollectionAt: string | null,
): MetricsRefusal {
  if (!circumstances.networkGivesMetrics)
    return { code: 'metrics_unavailable', reason: 'network_gives_none' };
  if (!circumstances.workspaceCollects)
    return { code: 'metrics_unavailable', reason: 'not_collected_by_workspace' };
  if (problem?.failure === 'not_found') return { code: 'metrics_unavailable', reason: 'deleted_at_network' };
  const missingScopes =
    problem?.failure === 'missing_scopes' && problem.missingScopes?.length
      ? problem.missingScopes
      : circumstances.missingScopes;
  if (missingScopes.length > 0) return { code: 'metrics_missing_scopes', missingScopes };
  return { code: 'metrics_not_collected_yet', nextCollectionAt };
}

/** The permissions of `needed` the account's token was not granted; none for sandbox accounts (no token). */
export function missingMetricsScopes(
  account: { sandbox: boolean; scopes?: readonly string[] },
  needed: readonly string[],
): string[] {
  if (account.sandbox) return [];
  const granted = new Set(account.scopes ?? []);
  return needed.filter((scope) => !granted.has(scope));
}

/** A collection's stored problem, a post's or an account's. */
type MetricsProblem = NonNullable<PostMetricsState['problem']>;

/** The stored problem as answered (a list the caller owns). */
export function problemOf(problem: MetricsProblem | undefined): PostMetricsView['problem'] {
  if (!problem) return null;
  const { failure, at, missingScopes } = problem;
  return { failure, at, ...(missingScopes && { missingScopes: [...missingScopes] }) };
}
