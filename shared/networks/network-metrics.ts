import type { Platform } from '../domain/platforms.js';
import type { NetworkMetrics } from './definition.js';
import { definitionOf } from './definitions.js';

/** The network's metrics as its definition declares them; undefined where it gives none. */
export function networkMetricsOf(platform: Platform): NetworkMetrics | undefined {
  const definition = definitionOf(platform);
  return 'metrics' in definition ? definition.metrics : undefined;
}

/**
 * The scopes one post's metrics need: where the network says they depend on the post (its
 * `postScopes`, from the post's platformOptions), those; else all its metrics' scopes.
 */
export function postMetricsScopesOf(post: {
  platform: Platform;
  platformOptions?: Readonly<Record<string, unknown>> | undefined;
}): readonly string[] {
  const metrics = networkMetricsOf(post.platform);
  if (!metrics) return [];
  return metrics.postScopes ? metrics.postScopes(post.platformOptions) : metrics.scopes;
}

/**
 * The scopes an account's own metrics need: its network's `accountScopes` where it declares them
 * (fewer than its posts' need), else all its metrics' scopes.
 */
export function accountMetricsScopesOf(platform: Platform): readonly string[] {
  const metrics = networkMetricsOf(platform);
  if (!metrics) return [];
  return metrics.accountScopes ?? metrics.scopes;
}
