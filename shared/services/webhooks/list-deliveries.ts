import type { Page } from '../../ports/page.js';
import type { DeliveryListQuery, WebhookDelivery, WebhookStore } from '../../ports/webhook-store.js';
import { makeGetWebhook } from './get-webhook.js';

/**
 * A webhook's delivery history:
 * 1. the webhook, in the caller's tenant and workspace (404 otherwise, also once it is deleted);
 * 2. its deliveries newest first, from the status index when `status` is given.
 */
export function makeListDeliveries(deps: { webhooks: WebhookStore }) {
  const getWebhook = makeGetWebhook(deps);
  return async function listDeliveries(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
    query: DeliveryListQuery,
  ): Promise<Page<WebhookDelivery>> {
    await getWebhook(tenantId, workspaceId, webhookId);
    return deps.webhooks.listDeliveries(tenantId, workspaceId, webhookId, query);
  };
}
