import { describe, expect, it } from 'vitest';
import { planHasErrors } from '../../src/calendar/plan-report.js';
import { renderTerminal } from '../../src/calendar/render-terminal.js';
import { sampleReport, VALID } from './render-fixtures.js';

describe('renderTerminal', () => {
  it('writes one line per change with its UTC and local time, and the summary', () => {
    // Act
    const text = renderTerminal(sampleReport());
    const lines = text.split('\n');

    // Assess
    expect(lines.find((line) => line.startsWith('+ create'))).toContain(
      'acme/launch  2026-12-07 08:00 UTC (2026-12-07 09:00 Europe/Berlin, slot)',
    );
    expect(lines.find((line) => line.startsWith('~ reschedule'))).toContain(
      '2026-12-07 08:00 UTC → 2026-12-07 13:00 UTC (2026-12-07 14:00 Europe/Berlin, recurrence)',
    );
    expect(lines.find((line) => line.startsWith('~ edit'))).toContain('changes content');
    expect(lines.find((line) => line.startsWith('- cancel'))).toContain('acme/dropped  2026-12-09 08:00 UTC');
    expect(text).not.toContain('acme/kept');
    expect(lines).toContain('Plan: 1 to create, 1 to reschedule, 1 to edit, 1 to cancel, 1 unchanged.');
  });

  it('lists unchanged entries when verbose', () => {
    expect(renderTerminal(sampleReport(), { verbose: true })).toMatch(/^ {2}unchanged .*acme\/kept/m);
  });

  it('shows under a change what validatePost said: violations, policy refusal, approval', () => {
    // Prepare
    const report = sampleReport({
      'acme/launch': {
        valid: false,
        postStatus: 'scheduled',
        errors: [
          {
            field: 'content',
            code: 'TEXT_TOO_LONG',
            message: 'LinkedIn takes 3000 characters.',
            limit: 3000,
          },
        ],
        policyViolation: { facet: 'schedule', reason: 'quiet_hours', message: 'No posts before 08:00.' },
      },
      'acme/edited': { ...VALID, postStatus: 'pending_approval' },
    });

    // Act
    const lines = renderTerminal(report).split('\n');

    // Assess: the problems follow their change's line.
    const create = lines.findIndex((line) => line.startsWith('+ create'));
    expect(lines[create + 1]).toBe('    ! content: TEXT_TOO_LONG: LinkedIn takes 3000 characters.');
    expect(lines[create + 2]).toBe('    ! refused: No posts before 08:00.');
    const edit = lines.findIndex((line) => line.startsWith('~ edit'));
    expect(lines[edit + 1]).toBe('    needs approval');
    expect(planHasErrors(report)).toBe(true);
  });

  it('flags a day over its limit in the forecast table', () => {
    const text = renderTerminal(sampleReport({}, true));
    expect(text).toMatch(/2026-12-07 {2}Acme GmbH \(linkedin\) +160 +1 +0 +150 +OVER THE LIMIT/);
    expect(planHasErrors(sampleReport({}, true))).toBe(true);
    expect(planHasErrors(sampleReport({ 'acme/launch': VALID }))).toBe(false);
  });

  it('colours only when asked', () => {
    expect(renderTerminal(sampleReport())).not.toContain('\u001b[');
    expect(renderTerminal(sampleReport(), { color: true })).toContain('\u001b[');
  });
});
