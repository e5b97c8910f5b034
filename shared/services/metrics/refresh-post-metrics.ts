import {
  ConflictError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
} from '../../domain/errors.js';
import { MetricsRefusedError } from '../../domain/metrics-errors.js';
import { lastCollectedAt } from '../../domain/metrics-schedule.js';
import { collectsMetricsFor } from '../../domain/metrics-settings.js';
import type { Post } from '../../domain/posts.js';
import { networkMetricsOf } from '../../networks/network-metrics.js';
import type { Clock } from '../../ports/clock.js';
import type { PostStore } from '../../ports/post-store.js';
import type { WorkspaceStore } from '../../ports/workspace-store.js';

/** A post's metrics are read from its network at most this often on request. */
export const METRICS_REFRESH_INTERVAL_MS = 15 * 60 * 1000;
const REFRESH_ATTEMPTS = 3;

/**
 * Ask for a post's metrics now (POST …/metrics/refresh): the post's next collection is brought
 * forward to now, and the delivery worker reads it within seconds, through the same machinery as a
 * scheduled one (the account's batch, the network's limits, YouTube's units after uploads'); the
 * request itself never calls the network. The schedule's later slots stay as they were.
 * - not published: 409 post_not_published; a network without metrics, a workspace that does not
 *   collect it, or a post gone at the network: 409 metrics_unavailable;
 * - read (or tried) within the last 15 minutes: 429 with Retry-After, until 15 minutes have passed;
 * - a collection already due: nothing written, its time answered.
 * Answers the post as stored.
 */
export function makeRefreshPostMetrics(deps: {
  posts: Pick<PostStore, 'get' | 'update'>;
  tenancy: Pick<WorkspaceStore, 'getWorkspace'>;
  clock: Clock;
}) {
  /**
   * The worker may write the post between this read and this write (a collection): the refresh is
   * decided again on the post as it is then, a few times, before answering 503 (try again).
   */
  return async function refreshPostMetrics(
    tenantId: string,
    workspaceId: string,
    postId: string,
  ): Promise<Post> {
    for (let attempt = 0; attempt < REFRESH_ATTEMPTS; attempt++) {
      try {
        return await refreshOnce(tenantId, workspaceId, postId);
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
      }
    }
    throw new ServiceUnavailableError(
      'The post kept changing while its refresh was being written; try again.',
      1,
    );
  };

  async function refreshOnce(tenantId: string, workspaceId: string, postId: string): Promise<Post> {
    const post = await deps.posts.get(tenantId, workspaceId, postId);
    if (!post) throw new NotFoundError();
    if (post.status !== 'published' || !post.platformPostId) {
      throw new MetricsRefusedError({ code: 'post_not_published', postStatus: post.status });
    }
    if (!networkMetricsOf(post.platform)) {
      throw new MetricsRefusedError({ code: 'metrics_unavailable', reason: 'network_gives_none' });
    }
    const workspace = await deps.tenancy.getWorkspace(tenantId, workspaceId);
    if (!workspace || !collectsMetricsFor(workspace, post.platform)) {
      throw new MetricsRefusedError({ code: 'metrics_unavailable', reason: 'not_collected_by_workspace' });
    }
    if (post.metrics?.problem?.failure === 'not_found') {
      throw new MetricsRefusedError({ code: 'metrics_unavailable', reason: 'deleted_at_network' });
    }
    const now = deps.clock.now();
    const last = lastCollectedAt(post.metrics);
    if (last !== undefined && now - last < METRICS_REFRESH_INTERVAL_MS) {
      throw new RateLimitedError(
        'metrics_refresh',
        Math.ceil((last + METRICS_REFRESH_INTERVAL_MS - now) / 1000),
      );
    }
    const due = post.metrics?.collection?.nextCollectAt;
    if (due !== undefined && Date.parse(due) <= now) return post;
    const refreshed: Post = {
      ...post,
      metrics: {
        ...(post.metrics ?? { readings: [] }),
        collection: {
          checks: post.metrics?.collection?.checks ?? 0,
          nextCollectAt: new Date(now).toISOString(),
        },
      },
      version: post.version + 1,
      updatedAt: new Date(now).toISOString(),
    };
    await deps.posts.update(refreshed, post.version);
    return refreshed;
  }
}
