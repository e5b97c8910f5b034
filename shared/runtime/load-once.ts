/**
 * `load`, run by the first call; every later call gets the same promise. A failure is not kept:
 * the next call runs `load` again, so one failed import or outage does not break the instance
 * for the rest of its life.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
