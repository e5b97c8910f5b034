/**
 * The failures tests queued per endpoint: each call of an endpoint takes the next one, in the
 * order they were queued; an endpoint with none left answers normally.
 */
export class FailureQueues<Endpoint, Failure> {
  private readonly failures = new Map<Endpoint, Failure[]>();

  inject(endpoint: Endpoint, failure: Failure, times: number): void {
    const queue = this.failures.get(endpoint) ?? [];
    for (let i = 0; i < times; i += 1) queue.push(failure);
    this.failures.set(endpoint, queue);
  }

  take(endpoint: Endpoint): Failure | undefined {
    return this.failures.get(endpoint)?.shift();
  }

  clearFailures(): void {
    this.failures.clear();
  }
}
