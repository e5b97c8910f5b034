/**
 * `npm run bench`: every benchmark, one after another, each in a process of its own (its own local
 * host and DynamoDB Local), so one's leftovers never weigh on the next. Each prints its figures
 * beside the reference it measures in the same run, and the target. `BENCH_ONLY=burst,cost` runs
 * some of them. Not a test: nothing is asserted; a benchmark that fails stops the run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../infra/paths.js';

/** In the order the README quotes them. */
const BENCHMARKS = ['bundles', 'create-latency', 'throughput', 'burst', 'delivery', 'cost'] as const;

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const chosen = BENCHMARKS.filter((name) => !only || only.includes(name));

for (const name of chosen) {
  const script = join(repoRoot, 'bench', `${name}.ts`);
  if (!existsSync(script)) throw new Error(`bench/${name}.ts is missing.`);
  console.log(`\n=== ${name} (bench/${name}.ts) ===\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
    stdio: 'inherit',
    cwd: repoRoot,
    // The service's INFO lines (one per post published) would bury the tables; WARN keeps errors.
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN' },
  });
  if (run.status !== 0) {
    console.error(`bench/${name}.ts failed (exit ${run.status ?? run.signal}).`);
    process.exit(1);
  }
}
