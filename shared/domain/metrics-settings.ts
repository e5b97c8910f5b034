import type { NetworkDefinition } from '../networks/definition.js';
import { definitionOf } from '../networks/definitions.js';
import { PLATFORMS, type Platform } from './platforms.js';

/**
 * Which networks a workspace collects metrics for (issue 28, docs/metrics.md "How collection
 * works"). Stored on the workspace as `metricsCollection`; absent, the default applies. An empty
 * list turns collection off for the workspace.
 */
export interface MetricsCollectionSetting {
  platforms: Platform[];
}

/**
 * The networks a workspace collects when it has said nothing: every network except those whose
 * reads are billed per read (X's pay-per-use pricing), which a workspace must choose to pay for.
 * YouTube's reads spend quota units, not money: collected by default, uploads keep priority.
 */
export function defaultMetricsPlatforms(): Platform[] {
  return PLATFORMS.filter((platform) => {
    const definition: NetworkDefinition = definitionOf(platform);
    return definition.metrics?.paidPerRead !== true;
  });
}

/** The setting in effect: the workspace's own, or the default. */
export function effectiveMetricsPlatforms(workspace: {
  metricsCollection?: MetricsCollectionSetting;
}): Platform[] {
  return workspace.metricsCollection?.platforms ?? defaultMetricsPlatforms();
}

/** Whether the workspace collects this network's metrics (its reader must exist as well to collect). */
export function collectsMetricsFor(
  workspace: { metricsCollection?: MetricsCollectionSetting },
  platform: Platform,
): boolean {
  return effectiveMetricsPlatforms(workspace).includes(platform);
}
