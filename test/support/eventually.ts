/** Polls `check` until it returns a value (not undefined) or the time runs out. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
  throw new Error(`Timed out waiting for ${options.what ?? 'a condition'}${last ? `: ${String(last)}` : ''}`);
}
