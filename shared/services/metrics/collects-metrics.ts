import { collectsMetricsFor } from '../../domain/metrics-settings.js';
import type { Post } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';
import type { MetricsDeps } from './metrics-deps.js';

/**
 * Whether a post's metrics may be collected: its account's connector has a metrics reader. Decided
 * at publication without reading anything more (the publish path's reads are counted: the post and
 * its account only); the workspace's setting is checked at each collection (collectsMetrics).
 */
export function makeHasMetricsReader(deps: Pick<MetricsDeps, 'connectorFor'>) {
  return (account: Account | undefined): boolean =>
    account !== undefined && deps.connectorFor(account)?.readPostMetrics !== undefined;
}

/**
 * Whether the post's metrics are collected now: its network must have a reader (the account's
 * connector's readPostMetrics) and its workspace must collect that network (its setting, or the
 * default).
 */
export function makeCollectsMetrics(deps: Pick<MetricsDeps, 'workspaces' | 'connectorFor'>) {
  const hasReader = makeHasMetricsReader(deps);
  return async function collectsMetrics(post: Post, account: Account | undefined): Promise<boolean> {
    if (!hasReader(account)) return false;
    const workspace = await deps.workspaces?.getWorkspace(post.tenantId, post.workspaceId);
    return collectsMetricsFor(workspace ?? {}, post.platform);
  };
}
