import { nextWebhookAttempt, sqsDelayFor } from '../../domain/webhooks/retry-schedule.js';
import type { Logger } from '../../ports/logger.js';
import type { DeliveryAttempt, DeliveryKey, Webhook, WebhookDelivery } from '../../ports/webhook-store.js';
import type { DispatchDeps, DispatchResult } from './dispatch-deps.js';
import type { AttemptResult } from './dispatch-post.js';

/**
 * While a webhook's deliveries keep succeeding, its lastDeliveryAt is rewritten at most this often:
 * a busy webhook would otherwise make its one item a hot key (every delivery writing it), for a
 * time nobody needs to the millisecond. A failure, or the first success after one, is always written.
 */
export const LAST_DELIVERY_REFRESH_MS = 60_000;

/** Whether this outcome changes what the webhook shows (beyond a lastDeliveryAt under a minute old). */
function outcomeIsNews(webhook: Webhook, status: 'succeeded' | 'failed', atMs: number): boolean {
  if (status === 'failed' || webhook.lastDeliveryStatus !== 'succeeded' || webhook.consecutiveFailures !== 0)
    return true;
  return !webhook.lastDeliveryAt || atMs - Date.parse(webhook.lastDeliveryAt) >= LAST_DELIVERY_REFRESH_MS;
}

/**
 * Where this attempt stands in its retry schedule. The schedule starts at a delivery's first
 * attempt, or again at the first attempt after a redelivery was asked for (`dispatchRequestedAt`:
 * POST …/retry), so a redelivery that fails is retried for about 24 hours like a new delivery,
 * with the same event id.
 */
function schedulePosition(delivery: WebhookDelivery, current: DeliveryAttempt) {
  const requestedMs = delivery.dispatchRequestedAt ? Date.parse(delivery.dispatchRequestedAt) : -Infinity;
  const sinceRequest = delivery.attempts.filter((attempt) => Date.parse(attempt.at) >= requestedMs);
  return {
    attemptNumber: sinceRequest.length + 1,
    firstAttemptAtMs: Date.parse((sinceRequest[0] ?? current).at),
  };
}

/**
 * Step 4, settle: record the attempt on the delivery (conditional on the attempts the dispatcher
 * read, so two copies of one message record one attempt), then:
 * - succeeded: the webhook's lastDeliveryAt/Status, consecutiveFailures back to 0 (lastDeliveryAt
 *   refreshed at most once a minute while nothing else changes: LAST_DELIVERY_REFRESH_MS);
 * - failed, with attempts left: the next message is queued (delayed, at most 900 s a hop) BEFORE
 *   the attempt is recorded, so a crash or a failed send in between leaves the old message to be
 *   delivered again rather than a pending delivery that nothing will ever retry. The extra message
 *   such a repeat (or a lost race) queues meets a delivery whose attempt count has moved on by the
 *   time it arrives, and is dropped as stale;
 * - failed, the last attempt: the delivery is failed; the webhook's consecutiveFailures goes up.
 */
export function makeSettle(
  deps: Pick<DispatchDeps, 'webhooks' | 'webhookQueue' | 'clock' | 'metrics' | 'random' | 'retryPlan'>,
) {
  const plan = deps.retryPlan ?? nextWebhookAttempt;
  const random = deps.random ?? Math.random;

  return async function settle(
    delivery: WebhookDelivery,
    webhook: Webhook,
    result: AttemptResult,
    log: Logger,
  ): Promise<DispatchResult> {
    const key: DeliveryKey = {
      tenantId: delivery.tenantId,
      workspaceId: delivery.workspaceId,
      webhookId: delivery.webhookId,
      deliveryId: delivery.deliveryId,
    };
    const { attempt } = result;
    const expected = delivery.attempts.length;
    const attemptLog = log.with({
      attempt: expected + 1,
      responseStatus: attempt.responseStatus,
      durationMs: attempt.durationMs,
      outcome: result.outcome,
    });
    const noteOutcome = async (status: 'succeeded' | 'failed') => {
      if (!outcomeIsNews(webhook, status, Date.parse(attempt.at))) return;
      await deps.webhooks.recordDeliveryOutcome(key.tenantId, key.workspaceId, key.webhookId, {
        at: attempt.at,
        status,
      });
    };

    if (result.succeeded) {
      const recorded = await deps.webhooks.recordAttempt(key, { attempt, status: 'succeeded' }, expected);
      if (!recorded) return lostRace(attemptLog);
      await noteOutcome('succeeded');
      deps.metrics.count('WebhookDeliveries', { outcome: 'succeeded' });
      deps.metrics.milliseconds(
        'WebhookDeliveryLatency',
        deps.clock.now() - Date.parse(delivery.event.createdAt),
      );
      attemptLog.info('webhook delivered');
      return 'succeeded';
    }

    const now = deps.clock.now();
    const position = schedulePosition(delivery, attempt);
    const next = plan(position.attemptNumber, position.firstAttemptAtMs, now, random);
    if (next.kind === 'retry') {
      const { delaySeconds } = sqsDelayFor(next.atMs - now);
      await deps.webhookQueue.send({ ...key, attempts: expected + 1 }, { delaySeconds });
      const nextAttemptAt = new Date(next.atMs).toISOString();
      const recorded = await deps.webhooks.recordAttempt(
        key,
        { attempt, status: 'pending', nextAttemptAt },
        expected,
      );
      if (!recorded) return lostRace(attemptLog);
      deps.metrics.count('WebhookDeliveries', { outcome: 'retrying' });
      attemptLog.warn('webhook attempt failed; retrying', { error: attempt.error, nextAttemptAt });
      return 'retrying';
    }
    const recorded = await deps.webhooks.recordAttempt(key, { attempt, status: 'failed' }, expected);
    if (!recorded) return lostRace(attemptLog);
    await noteOutcome('failed');
    deps.metrics.count('WebhookDeliveries', { outcome: 'failed' });
    attemptLog.warn('webhook delivery failed after its last attempt', { error: attempt.error });
    return 'failed';
  };
}

/** Another copy of the message recorded this attempt first: its record stands, this one is dropped. */
function lostRace(log: Logger): DispatchResult {
  log.info('webhook attempt not recorded: another dispatch recorded it first');
  return 'dropped';
}
