import type { Platform } from '../domain/platforms.js';
import type { NetworkMetrics } from './definition.js';
import { definitionOf } from './definitions.js';

/** The network's metrics as its definition declares them; undefined where it gives none. */
export function networkMetricsOf(platform: Platform): NetworkMetrics | undefined {
  const definition = definitionOf(platform);
  return 'metrics' in definition ? definition.metrics : undefined;
}
