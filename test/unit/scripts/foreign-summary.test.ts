import { describe, expect, it } from 'vitest';
import { withoutPytestStyleSummary } from '../../../scripts/support/foreign-summary.js';

describe("schemathesis's pytest-style closing line", () => {
  it('becomes a sentence no pytest log reader takes for a run of no test', () => {
    const line = '============================= 2 warnings in 32.95s =============================';
    const rewritten = withoutPytestStyleSummary(line);
    expect(rewritten).toBe('Schemathesis finished (2 warnings), 32.95 seconds.');
    expect(rewritten).not.toMatch(/=+|\bin [\d.]+s\b/);
  });

  it('leaves every other line as it was, the summary of test cases included', () => {
    for (const line of ['  3486 generated, 3486 passed, 52 skipped', '=== SUMMARY ===', 'Seed: 25', ''])
      expect(withoutPytestStyleSummary(line)).toBe(line);
  });
});
