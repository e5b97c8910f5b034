import type { Reporter, TestModule } from 'vitest/node';

export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Every test of the run by its result; a test that never ran (pending) counts as skipped. */
export function countTests(testModules: readonly TestModule[]): RunCounts {
  const counts: RunCounts = { passed: 0, failed: 0, skipped: 0 };
  for (const testModule of testModules) {
    for (const test of testModule.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed += 1;
      else if (state === 'failed') counts.failed += 1;
      else counts.skipped += 1;
    }
  }
  return counts;
}

/** The plain closing line read by tools that know no vitest: `Tests: 12 passed, 0 failed, 1 skipped`. */
export function closingLine(counts: RunCounts): string {
  const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
  return `Tests: ${counts.passed} passed, ${counts.failed} failed${skipped}`;
}

/**
 * Vitest's own summary is coloured and has a shape CI's log reader does not know, so a run's log
 * could be read by the last foreign summary in it (schemathesis closes on a pytest-style line with
 * no test in it). This reporter, after vitest's default one, closes the run on one plain line.
 */
export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    process.stdout.write(`\n${closingLine(countTests(testModules))}\n`);
  }
}
