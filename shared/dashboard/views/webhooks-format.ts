import type { z } from 'zod';
import type {
  createdWebhookResource,
  deliveryResource,
  webhookResource,
} from '../../operations/webhooks/webhook-schemas.js';
import { type Html, html } from '../html.js';

/** A webhook as the API's read shows it (never its secret). */
export type WebhookItem = z.input<typeof webhookResource>;
/** The create answer: the only one that holds the secret. */
export type CreatedWebhookItem = z.output<typeof createdWebhookResource>;
/** A delivery as the API's delivery read shows it (never the receiver's body). */
export type DeliveryItem = z.input<typeof deliveryResource>;

/** Where a workspace's webhook pages live. */
export function webhooksPath(workspaceId: string, webhookId?: string): string {
  const base = `/dashboard/workspaces/${workspaceId}/webhooks`;
  return webhookId ? `${base}/${webhookId}` : base;
}

/** The latest delivery's outcome, as a badge. */
export function outcomeBadge(status: string | null | undefined): Html {
  if (!status) return html`<span class="badge">none yet</span>`;
  const tone = status === 'succeeded' ? ' good' : status === 'failed' ? ' bad' : '';
  return html`<span class="badge${tone}">${status}</span>`;
}
