import { describe, expect, it } from 'vitest';
import { closingLine } from '../../support/closing-line-reporter.js';

// CI's log reader counts a run by a plain line: `N passed, N failed`, optionally `, N skipped`,
// optionally after one word and a colon, alone on its line.
const PLAIN_CLOSING_LINE = /^(\w+: )?\d+ passed, \d+ failed(, \d+ skipped)?$/;

describe('the closing line', () => {
  it('has the plain shape, with the counts it was given', () => {
    const line = closingLine({ passed: 4391, failed: 2, skipped: 0 });
    expect(line).toMatch(PLAIN_CLOSING_LINE);
    expect(line).toBe('Tests: 4391 passed, 2 failed');
  });

  it('names skipped tests only when there are some', () => {
    const line = closingLine({ passed: 3, failed: 0, skipped: 1 });
    expect(line).toMatch(PLAIN_CLOSING_LINE);
    expect(line).toBe('Tests: 3 passed, 0 failed, 1 skipped');
  });
});
