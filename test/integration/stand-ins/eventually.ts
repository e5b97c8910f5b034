/**
 * Runs `check` until it stops throwing (an `expect` inside it passing), polling every few ms, and
 * returns its result; after `timeoutMs` the last failure is thrown. Async flows are checked by
 * polling a result, never by sleeping a fixed time.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 5000, intervalMs = 5 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Lets a background loop run a few rounds, for the few checks that something did NOT happen.
 * Kept to a handful of poll intervals.
 */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A promise with its resolve function outside, to hold a handler mid-batch. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
