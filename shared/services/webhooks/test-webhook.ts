import { webhookTestEnvelope } from '../../domain/webhooks/payloads.js';
import type { Clock } from '../../ports/clock.js';
import type { WebhookDelivery, WebhookStore } from '../../ports/webhook-store.js';
import { makeGetWebhook } from './get-webhook.js';

/**
 * Send a `webhook.test` event to one webhook (`POST …/webhooks/{webhook_id}/test`):
 * 1. the webhook, in the caller's tenant and workspace (404 otherwise);
 * 2. a new test event (its own id each time) for that webhook alone: not in the event feed, not
 *    to the workspace's other webhooks, whatever they subscribe to;
 * 3. one write: its delivery, pending, due now, with dispatchRequestedAt, so the outbox sends the
 *    dispatch message (docs/architecture.md#data-flow: one write on the request path). Then it is delivered,
 *    signed and retried like any other.
 */
export function makeTestWebhook(deps: { webhooks: WebhookStore; clock: Clock }) {
  const getWebhook = makeGetWebhook(deps);
  return async function testWebhook(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
  ): Promise<WebhookDelivery> {
    const webhook = await getWebhook(tenantId, workspaceId, webhookId);
    const nowMs = deps.clock.now();
    const now = new Date(nowMs).toISOString();
    const { delivery } = await deps.webhooks.createDelivery({
      tenantId,
      workspaceId,
      webhookId,
      event: webhookTestEnvelope(webhook, nowMs),
      createdAt: now,
      nextAttemptAt: now,
      dispatchRequestedAt: now,
    });
    return delivery;
  };
}
