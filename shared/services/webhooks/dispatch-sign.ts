import { webhookDeliveryHeaders } from '../../domain/webhooks/delivery-headers.js';
import { deliveredEnvelopeSchema, WebhookPayloadError } from '../../domain/webhooks/payloads.js';
import type { WebhookPost } from '../../ports/webhook-sender.js';
import type { WebhookDelivery, WebhookRecord } from '../../ports/webhook-store.js';
import type { DispatchDeps } from './dispatch-deps.js';

/**
 * Step 2, sign: the stored envelope checked against its documented schema (a body the docs do not
 * describe is never sent: WebhookPayloadError, a bug, fails the message towards the dead-letter
 * queue), serialised ONCE; the secret decrypted under the webhook's own context; those exact bytes
 * signed at this attempt's time. The secret lives only in this function's scope: never logged,
 * never returned.
 */
export function makeSign(deps: Pick<DispatchDeps, 'secrets' | 'clock' | 'version'>) {
  return async function sign(delivery: WebhookDelivery, webhook: WebhookRecord): Promise<WebhookPost> {
    const parsed = deliveredEnvelopeSchema.safeParse(delivery.event);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || '(root)'}: ${issue.code}`,
      );
      throw new WebhookPayloadError(delivery.eventId, delivery.eventType, problems);
    }
    const body = Buffer.from(JSON.stringify(parsed.data), 'utf8');
    const secret = await deps.secrets.decrypt(webhook.secretCiphertext, {
      tenantId: webhook.tenantId,
      workspaceId: webhook.workspaceId,
      purpose: 'webhook-signing-secret',
      recordId: webhook.webhookId,
    });
    const headers = webhookDeliveryHeaders({
      secret,
      eventId: delivery.eventId,
      rawBody: body,
      timestampSeconds: Math.floor(deps.clock.now() / 1000),
      version: deps.version,
    });
    return { url: webhook.url, headers, body };
  };
}
