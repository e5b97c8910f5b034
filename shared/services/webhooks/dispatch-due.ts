import { sqsDelayFor } from '../../domain/webhooks/retry-schedule.js';
import type { Logger } from '../../ports/logger.js';
import type { WebhookDelivery, WebhookRecord } from '../../ports/webhook-store.js';
import type { DispatchDeps } from './dispatch-deps.js';
import type { WebhookDispatchMessage } from './dispatch-message.js';

export type Due =
  | { kind: 'due'; delivery: WebhookDelivery; webhook: WebhookRecord }
  | { kind: 'held' }
  | { kind: 'dropped' };

/**
 * Step 1, due: read the delivery and its webhook fresh. Dropped: no such delivery, one already
 * succeeded or failed, a stale message (the delivery has more attempts than when it was sent:
 * another message made that attempt), or a deleted webhook (its pending retries stop here).
 * Early (a retry whose wait is longer than one SQS delay): back on the queue for the time that
 * remains, at most 900 s a hop, never waited for in the function.
 */
export function makeDue(deps: Pick<DispatchDeps, 'webhooks' | 'webhookQueue' | 'clock'>) {
  return async function due(message: WebhookDispatchMessage, log: Logger): Promise<Due> {
    const delivery = await deps.webhooks.getDelivery(message);
    if (delivery?.status !== 'pending') {
      log.debug('webhook dispatch dropped: the delivery is not pending', {
        status: delivery?.status ?? 'missing',
      });
      return { kind: 'dropped' };
    }
    if (delivery.attempts.length !== message.attempts) {
      log.debug('webhook dispatch dropped: a stale message', {
        messageAttempts: message.attempts,
        attempts: delivery.attempts.length,
      });
      return { kind: 'dropped' };
    }
    const webhook = await deps.webhooks.getWebhookForDelivery(
      message.tenantId,
      message.workspaceId,
      message.webhookId,
    );
    if (!webhook) {
      log.info('webhook dispatch dropped: the webhook was deleted');
      return { kind: 'dropped' };
    }
    const waitMs = delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) - deps.clock.now() : 0;
    if (waitMs > 0) {
      const hop = sqsDelayFor(waitMs);
      await deps.webhookQueue.send(message, { delaySeconds: hop.delaySeconds });
      log.debug('webhook dispatch held until due', { delaySeconds: hop.delaySeconds });
      return { kind: 'held' };
    }
    return { kind: 'due', delivery, webhook };
  };
}
