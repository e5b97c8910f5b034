import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fieldOf, metricsFieldTable, metricsSourceTable } from '../../../scripts/docs/metrics-table.js';
import { NETWORK_DEFINITIONS } from '../../../shared/networks/definitions.js';
import { networkMetricsOf } from '../../../shared/networks/network-metrics.js';

const DOC = readFileSync(new URL('../../../docs/metrics.md', import.meta.url), 'utf8');

describe('docs/metrics.md', () => {
  it("prints the field map generated from the definitions' metrics.fields (npx tsx scripts/docs/metrics-table.ts)", () => {
    expect(DOC).toContain(`${metricsFieldTable()}\n`);
  });

  it('prints each network’s requests and cost from metrics.source and metrics.cost', () => {
    expect(DOC).toContain(`${metricsSourceTable()}\n`);
  });

  it('every key of a definition’s metrics.fields names one of our fields, so none is left out of the map', () => {
    const unknown = NETWORK_DEFINITIONS.flatMap((definition) =>
      Object.keys(networkMetricsOf(definition.platform)?.fields ?? {})
        .filter((key) => fieldOf(key) === undefined)
        .map((key) => `${definition.platform}: ${key}`),
    );
    expect(unknown).toEqual([]);
  });

  it('documents each 409 of the metrics reads', () => {
    for (const code of [
      'post_not_published',
      'metrics_unavailable',
      'metrics_missing_scopes',
      'metrics_not_collected_yet',
    ])
      expect(DOC).toContain(`| \`${code}\` |`);
  });
});
