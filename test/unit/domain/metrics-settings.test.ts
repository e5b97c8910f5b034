import { describe, expect, it } from 'vitest';
import {
  collectsMetricsFor,
  defaultMetricsPlatforms,
  effectiveMetricsPlatforms,
} from '../../../shared/domain/metrics-settings.js';
import { PLATFORMS } from '../../../shared/domain/platforms.js';
import type { NetworkDefinition } from '../../../shared/networks/definition.js';
import { definitionOf } from '../../../shared/networks/definitions.js';

describe('which networks a workspace collects metrics for', () => {
  it('leaves out by default exactly the networks whose reads are paid per read', () => {
    const paid = PLATFORMS.filter((platform) => {
      const definition: NetworkDefinition = definitionOf(platform);
      return definition.metrics?.paidPerRead === true;
    });
    expect(defaultMetricsPlatforms()).toEqual(PLATFORMS.filter((platform) => !paid.includes(platform)));
  });

  it('follows the workspace own list, where an empty list turns collection off', () => {
    expect(effectiveMetricsPlatforms({ metricsCollection: { platforms: ['twitter'] } })).toEqual(['twitter']);
    expect(collectsMetricsFor({ metricsCollection: { platforms: [] } }, 'linkedin')).toBe(false);
    expect(collectsMetricsFor({}, 'linkedin')).toBe(true);
  });
});
