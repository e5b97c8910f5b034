import { collectsMetricsFor } from '../../domain/metrics-settings.js';
import type { Post } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';
import type { MetricsDeps } from './metrics-deps.js';

/**
 * Whether the post's metrics are collected at all: its network must have a reader (the account's
 * connector's readPostMetrics) and its workspace must collect that network (its setting, or the
 * default).
 */
export function makeCollectsMetrics(deps: Pick<MetricsDeps, 'workspaces' | 'connectorFor'>) {
  return async function collectsMetrics(post: Post, account: Account | undefined): Promise<boolean> {
    if (!account || !deps.connectorFor(account)?.readPostMetrics) return false;
    const workspace = await deps.workspaces?.getWorkspace(post.tenantId, post.workspaceId);
    return collectsMetricsFor(workspace ?? {}, post.platform);
  };
}
