import { NotFoundError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { WebhookDelivery, WebhookStore } from '../../ports/webhook-store.js';
import { makeGetWebhook } from './get-webhook.js';

/**
 * Redeliver now (`POST …/deliveries/{delivery_id}/retry`), whatever the delivery's status:
 * 1. the webhook, in the caller's tenant and workspace (404 otherwise);
 * 2. the delivery, under that webhook (404 otherwise);
 * 3. one write: the delivery becomes pending, due now, with a new dispatchRequestedAt. The outbox
 *    sees that change on the table's stream and sends the dispatch message; nothing else leaves
 *    the request (docs/architecture.md#data-flow). The same event, with the same id, goes out again.
 * A pending delivery with an attempt scheduled later is brought forward to now; the attempts so far
 * stay in its history.
 */
export function makeRetryDelivery(deps: { webhooks: WebhookStore; clock: Clock }) {
  const getWebhook = makeGetWebhook(deps);
  return async function retryDelivery(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<WebhookDelivery> {
    await getWebhook(tenantId, workspaceId, webhookId);
    const key = { tenantId, workspaceId, webhookId, deliveryId };
    const delivery = await deps.webhooks.getDelivery(key);
    if (!delivery) throw new NotFoundError();
    const requested = await deps.webhooks.requestDispatch(key, new Date(deps.clock.now()).toISOString());
    // Gone between the read and the write (its retention ended): as if it had not been there.
    if (!requested) throw new NotFoundError();
    return requested;
  };
}
