/** What the benchmarks share: percentiles, a bounded pool of parallel tasks, and how a run ends. */

/** The nearest-rank percentile `p` (0–100) of `values`; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Runs `task(0…count-1)` with at most `limit` at once; the results in index order. */
export async function inParallel<T>(
  count: number,
  limit: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

/** Runs a benchmark's main; a failure is printed and ends the process with 1 (bench/all.ts stops). */
export function runBenchmark(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(`${name} failed:`, error);
    process.exit(1);
  });
}

/** The tenant a benchmark posts as: its workspace's posts URL, its key, its X sandbox account. */
export interface BenchPoster {
  postsUrl: string;
  apiKey: string;
  accountId: string;
}

/** Creates one text post on the X sandbox account (publish now unless `extra` says otherwise); its id. */
export async function createBenchPost(
  poster: BenchPoster,
  content: string,
  extra: object = {},
): Promise<string> {
  const response = await fetch(poster.postsUrl, {
    method: 'POST',
    headers: { Authorization: `Bearer ${poster.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      platform: 'twitter',
      accountId: poster.accountId,
      status: 'publish',
      postType: 'text',
      content,
      ...extra,
    }),
  });
  if (response.status !== 201)
    throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}
