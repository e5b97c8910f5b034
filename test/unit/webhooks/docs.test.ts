import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DELIVERED_EVENT_TYPES } from '../../../shared/domain/webhooks/payloads.js';
import { WEBHOOK_RETRY_SCHEDULE } from '../../../shared/domain/webhooks/retry-schedule.js';

const DOC = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');

/** `87330` → `24 h 15 min 30 s`, as the doc writes durations. */
function duration(seconds: number): string {
  const parts = [
    [Math.floor(seconds / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'min'],
    [seconds % 60, 's'],
  ] as const;
  return (
    parts
      .filter(([amount]) => amount > 0)
      .map(([amount, unit]) => `${amount} ${unit}`)
      .join(' ') || '0'
  );
}

/** The retry table's rows, rendered from the schedule the dispatcher uses. */
function scheduleRows(): string {
  return WEBHOOK_RETRY_SCHEDULE.map(
    (row) =>
      `| ${row.attempt} | ${row.attempt === 1 ? '—' : duration(row.delaySeconds)} | ${duration(row.offsetSeconds)} |`,
  ).join('\n');
}

describe('docs/webhooks.md', () => {
  it('prints the retry schedule the service uses', () => {
    expect(DOC).toContain(
      `| attempt | wait before it | time after the first attempt |\n| --- | --- | --- |\n${scheduleRows()}\n`,
    );
    expect(scheduleRows().split('\n').at(-1)).toBe('| 15 | 4 h | 24 h 15 min 30 s |');
  });

  it('describes every event a body can carry', () => {
    for (const type of DELIVERED_EVENT_TYPES) expect(DOC).toContain(`| \`${type}\` |`);
  });
});
