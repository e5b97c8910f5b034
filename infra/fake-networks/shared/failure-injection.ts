import type { Reply } from './http.js';

/**
 * What the next call(s) of an endpoint get instead of the normal answer, in every fake that queues
 * failures (a fake may add its own kinds):
 * - `pass`: the normal answer (to reach a later call: pass, pass, then a failure);
 * - `reply`: this answer, without doing anything;
 * - `reset`: the connection is dropped without an answer, before anything is done;
 * - `delayAfter`: the call is done (a post stored, bytes kept), then the answer is held back this
 *   long: past a client's time-out, the client sees no answer for a request that took effect.
 */
export type QueuedFailure =
  | { kind: 'pass' }
  | { kind: 'reply'; reply: Reply }
  | { kind: 'reset' }
  | { kind: 'delayAfter'; ms: number };

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

/**
 * Sends a call's answer: at once, or, when its queued failure is `delayAfter`, held back that
 * long by `later` (the call already took effect).
 */
export function answerPerFailure(
  failure: { kind: string; ms?: number } | undefined,
  later: (ms: number, write: () => void) => void,
  write: () => void,
): void {
  if (failure?.kind === 'delayAfter' && failure.ms !== undefined) later(failure.ms, write);
  else write();
}
