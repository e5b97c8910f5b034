import { NotFoundError } from '../../domain/errors.js';
import type { Webhook, WebhookRegistry } from '../../ports/webhook-store.js';

/**
 * The webhook, as responses may show it (never its secret), or 404: every webhook route starts
 * here, so another tenant's or workspace's webhook id, or a deleted one, is simply not found.
 */
export function makeGetWebhook(deps: { webhooks: Pick<WebhookRegistry, 'getWebhook'> }) {
  return async function getWebhook(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
  ): Promise<Webhook> {
    const webhook = await deps.webhooks.getWebhook(tenantId, workspaceId, webhookId);
    if (!webhook) throw new NotFoundError();
    return webhook;
  };
}
