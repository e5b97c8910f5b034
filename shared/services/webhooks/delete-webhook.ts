import { NotFoundError } from '../../domain/errors.js';
import type { WebhookRegistry } from '../../ports/webhook-store.js';

/**
 * Delete a webhook: gone at once (a consistent read never sees it again), and with it every
 * delivery still pending, since the dispatcher loads the webhook before each attempt and stops
 * when it is gone. Its delivery history is left to expire (30 days): reads go through the webhook.
 */
export function makeDeleteWebhook(deps: { webhooks: Pick<WebhookRegistry, 'deleteWebhook'> }) {
  return async function deleteWebhook(
    tenantId: string,
    workspaceId: string,
    webhookId: string,
  ): Promise<void> {
    const deleted = await deps.webhooks.deleteWebhook(tenantId, workspaceId, webhookId);
    if (!deleted) throw new NotFoundError();
  };
}
