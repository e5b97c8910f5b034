/**
 * CI's log reader knows pytest's closing line (`=== 3 passed, 2 warnings in 4.1s ===`) and reads a
 * run by it. Schemathesis closes on a line of that shape which counts no test
 * (`=== 2 warnings in 32.95s ===`), so a CI log holding it was read as a run of no test, although
 * vitest's plain `Tests: N passed, N failed` came after it. Schemathesis's own summary above that
 * line (operations tested, test cases passed) stays as it is; the banner becomes a plain sentence.
 */
const PYTEST_STYLE_SUMMARY = /^=+ (.+) in ([\d.]+)s =+$/;

export function withoutPytestStyleSummary(line: string): string {
  const match = PYTEST_STYLE_SUMMARY.exec(line.trim());
  if (!match) return line;
  const [, outcome, seconds] = match;
  return `Schemathesis finished (${outcome}), ${seconds} seconds.`;
}
