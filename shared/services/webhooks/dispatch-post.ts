import type { WebhookPost, WebhookSendOutcome } from '../../ports/webhook-sender.js';
import type { DeliveryAttempt } from '../../ports/webhook-store.js';
import type { DispatchDeps } from './dispatch-deps.js';

export interface AttemptResult {
  attempt: DeliveryAttempt;
  /** A 2xx whose whole response arrived in time. */
  succeeded: boolean;
  /** Kept for the logs and metrics (`answered`, `timed_out`, `refused`, `unreachable`). */
  outcome: WebhookSendOutcome['kind'];
}

/** The attempt's error, in the service's words: never the receiver's body. */
function failureOf(outcome: WebhookSendOutcome): string | undefined {
  switch (outcome.kind) {
    case 'answered':
      if (outcome.status >= 200 && outcome.status <= 299) return undefined;
      if (outcome.status >= 300 && outcome.status <= 399)
        return `The receiver answered HTTP ${outcome.status}, a redirect, which is not followed.`;
      return `The receiver answered HTTP ${outcome.status}.`;
    case 'timed_out':
      return `No complete response within ${outcome.timeoutMs / 1000} s.`;
    case 'refused':
    case 'unreachable':
      return outcome.reason;
  }
}

/**
 * Step 3, post: one POST through the sender (the address rules again, DNS pinned, no redirect, the
 * whole response within 5 s), timed by the clock, as the attempt the history shows.
 */
export function makePost(deps: Pick<DispatchDeps, 'sendWebhook' | 'clock'>) {
  return async function post(request: WebhookPost): Promise<AttemptResult> {
    const startedAt = deps.clock.now();
    const outcome = await deps.sendWebhook(request);
    const durationMs = Math.max(0, deps.clock.now() - startedAt);
    const error = failureOf(outcome);
    const attempt: DeliveryAttempt = {
      at: new Date(startedAt).toISOString(),
      ...(outcome.kind === 'answered' && { responseStatus: outcome.status }),
      durationMs,
      ...(error !== undefined && { error }),
    };
    return { attempt, succeeded: error === undefined, outcome: outcome.kind };
  };
}
