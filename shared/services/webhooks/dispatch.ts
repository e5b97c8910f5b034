import type { Logger } from '../../ports/logger.js';
import type { DispatchDeps, DispatchResult } from './dispatch-deps.js';
import { makeDue } from './dispatch-due.js';
import type { WebhookDispatchMessage } from './dispatch-message.js';
import { makePost } from './dispatch-post.js';
import { makeSettle } from './dispatch-settle.js';
import { makeSign } from './dispatch-sign.js';

export type { DispatchDeps, DispatchResult, WebhookRetryPlan } from './dispatch-deps.js';
export type { WebhookDispatchMessage } from './dispatch-message.js';

/**
 * Attempt one webhook delivery (docs/webhooks.md "Delivery"):
 * 1. due: read the delivery and its webhook fresh; drop what is finished, stale or deleted; put an
 *    early message back on the queue for the time that remains;
 * 2. sign: the stored envelope, checked against its schema and serialised once; the secret
 *    decrypted; those exact bytes signed;
 * 3. post: one POST (address rules again, DNS pinned, no redirect, 5 s for the whole response);
 * 4. settle: record the attempt; the webhook's outcome; the next retry queued, or failed after the last.
 */
export function makeDispatchWebhook(deps: DispatchDeps) {
  const due = makeDue(deps);
  const sign = makeSign(deps);
  const post = makePost(deps);
  const settle = makeSettle(deps);

  return async function dispatchWebhook(
    message: WebhookDispatchMessage,
    logger: Logger = deps.logger,
  ): Promise<DispatchResult> {
    const { tenantId, workspaceId, webhookId, deliveryId } = message;
    const messageLog = logger.with({ tenantId, workspaceId, webhookId, deliveryId });
    const found = await due(message, messageLog);
    if (found.kind !== 'due') return found.kind;
    const log = messageLog.with({ eventId: found.delivery.eventId, eventType: found.delivery.eventType });
    const request = await sign(found.delivery, found.webhook);
    const result = await post(request);
    return settle(found.delivery, found.webhook, result, log);
  };
}
