/**
 * docs/metrics.md's field map, generated from the networks' definitions (`metrics.fields`,
 * `metrics.source`): `npx tsx scripts/docs/metrics-table.ts` prints it; a unit test
 * (test/unit/docs/metrics-table.test.ts) fails while the doc's copy differs.
 */
import { fileURLToPath } from 'node:url';
import { ACCOUNT_METRIC_NAMES, POST_METRIC_NAMES } from '../../shared/domain/metrics.js';
import { NETWORK_DEFINITIONS } from '../../shared/networks/definitions.js';
import { networkMetricsOf } from '../../shared/networks/network-metrics.js';

/** Our field a definition's key names: `account.followers` (or a bare account-only name) or a post field. */
export function fieldOf(key: string): { of: 'post' | 'account'; name: string } | undefined {
  if (key.startsWith('account.')) {
    const name = key.slice('account.'.length);
    return (ACCOUNT_METRIC_NAMES as readonly string[]).includes(name) ? { of: 'account', name } : undefined;
  }
  if ((POST_METRIC_NAMES as readonly string[]).includes(key)) return { of: 'post', name: key };
  if ((ACCOUNT_METRIC_NAMES as readonly string[]).includes(key)) return { of: 'account', name: key };
  return undefined;
}

const cell = (text: string | undefined) => (text === undefined ? '—' : `\`${text.replaceAll('|', '\\|')}\``);

/** The network's own name for each of our fields, a row per field, a column per network. */
export function metricsFieldTable(): string {
  const networks = NETWORK_DEFINITIONS.map((definition) => ({
    name: definition.displayName,
    byField: new Map<string, string>(
      Object.entries(networkMetricsOf(definition.platform)?.fields ?? {}).flatMap(([key, theirs]) => {
        const field = fieldOf(key);
        return field ? [[`${field.of}.${field.name}`, theirs] as const] : [];
      }),
    ),
  }));
  const rows = [
    ...POST_METRIC_NAMES.map((name) => ({ label: `\`${name}\``, key: `post.${name}` })),
    ...ACCOUNT_METRIC_NAMES.map((name) => ({ label: `account \`${name}\``, key: `account.${name}` })),
  ];
  return [
    `| ours | ${networks.map((network) => network.name).join(' | ')} |`,
    `| --- | ${networks.map(() => '---').join(' | ')} |`,
    ...rows.map(
      (row) =>
        `| ${row.label} | ${networks.map((network) => cell(network.byField.get(row.key))).join(' | ')} |`,
    ),
  ].join('\n');
}

/** Each network's requests that read them, and what they cost. */
export function metricsSourceTable(): string {
  return [
    '| network | requests | cost |',
    '| --- | --- | --- |',
    ...NETWORK_DEFINITIONS.map((definition) => {
      const metrics = networkMetricsOf(definition.platform);
      // Pipes would split the cell; angle brackets would read as HTML.
      const text = (value: string | undefined) =>
        (value ?? '—').replaceAll('|', '\\|').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
      return `| ${definition.displayName} | ${text(metrics?.source)} | ${text(metrics?.cost)} |`;
    }),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${metricsFieldTable()}\n\n${metricsSourceTable()}\n`);
}
