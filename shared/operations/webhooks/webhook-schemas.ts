import * as z from 'zod';
import { EVENT_TYPES } from '../../domain/events.js';
import type { Webhook, WebhookDelivery } from '../../ports/webhook-store.js';
import { idOf, isoTimestamp } from '../common-schemas.js';

/** A description is a label for people: bounded so a webhook item stays small. */
export const MAX_DESCRIPTION_LENGTH = 500;

export const webhookPathParams = z.object({ workspace_id: idOf('workspace'), webhook_id: idOf('webhook') });
export const shortWebhookPathParams = z.object({ webhook_id: idOf('webhook') });
export const deliveryPathParams = webhookPathParams.extend({ delivery_id: idOf('webhookDelivery') });

export const createWebhookBody = z.strictObject({
  url: z
    .string()
    .min(1)
    .max(2048)
    .describe(
      'The receiver: HTTPS, a public host (no localhost, private, loopback or link-local address), port 443 or 1024–65535. Checked again, DNS pinned, at every delivery.',
    ),
  events: z
    .array(z.enum(EVENT_TYPES))
    .min(1)
    .max(EVENT_TYPES.length)
    .superRefine((events, ctx) => {
      const seen = new Set<string>();
      for (const [index, event] of events.entries()) {
        if (seen.has(event))
          ctx.addIssue({ code: 'custom', message: `${event} is listed twice.`, path: [index] });
        seen.add(event);
      }
    })
    // The refinement's rule, said in the document too (JSON Schema cannot read the refinement).
    .meta({ uniqueItems: true })
    .describe('The events to receive: a non-empty list of distinct event names.'),
  description: z
    .string()
    .trim()
    .min(1)
    .max(MAX_DESCRIPTION_LENGTH)
    .optional()
    .describe(`A label for people, at most ${MAX_DESCRIPTION_LENGTH} characters.`),
});

const webhookFields = {
  id: z.string().describe('whk_…'),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  createdAt: isoTimestamp,
};

export const createdWebhookResource = z
  .object({
    ...webhookFields,
    secret: z
      .string()
      .describe(
        'whsec_…: the key of every delivery signature. Shown in this response only; it cannot be read again (to change it, delete the webhook and create another).',
      ),
  })
  .meta({ id: 'CreatedWebhook' });

export const webhookResource = z
  .object({
    ...webhookFields,
    lastDeliveryAt: isoTimestamp
      .nullable()
      .describe('When the latest delivery finished; null before the first.'),
    lastDeliveryStatus: z.enum(['succeeded', 'failed']).nullable(),
    consecutiveFailures: z
      .number()
      .int()
      .describe('Deliveries that failed (every attempt) since the last one that succeeded.'),
  })
  .meta({ id: 'Webhook' });

export function toWebhookResource(webhook: Webhook): z.input<typeof webhookResource> {
  return {
    id: webhook.webhookId,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description ?? null,
    createdAt: webhook.createdAt,
    lastDeliveryAt: webhook.lastDeliveryAt ?? null,
    lastDeliveryStatus: webhook.lastDeliveryStatus ?? null,
    consecutiveFailures: webhook.consecutiveFailures,
  };
}

const attemptResource = z.object({
  at: isoTimestamp.describe('When the attempt started.'),
  responseStatus: z.number().int().nullable().describe("The receiver's HTTP status; null when none came."),
  durationMs: z.number(),
  error: z
    .string()
    .nullable()
    .describe("Why the attempt failed, in the service's words (never the receiver's body); null on success."),
});

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const deliveryResource = z
  .object({
    id: z.string().describe('whd_…'),
    webhookId: z.string(),
    eventId: z.string().describe('The event (evt_…): every attempt and redelivery carries it.'),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int().describe('How many attempts were made.'),
    lastAttemptAt: isoTimestamp.nullable(),
    nextAttemptAt: isoTimestamp
      .nullable()
      .describe('When the next attempt is due, while pending; null once succeeded or failed.'),
    responseStatus: z.number().int().nullable().describe('Of the latest attempt.'),
    responseTimeMs: z.number().nullable().describe('Of the latest attempt.'),
    error: z.string().nullable().describe('Of the latest attempt.'),
    createdAt: isoTimestamp,
    attemptHistory: z.array(attemptResource).describe('Every attempt, oldest first.'),
  })
  .meta({ id: 'WebhookDelivery' });

export function toDeliveryResource(delivery: WebhookDelivery): z.input<typeof deliveryResource> {
  return {
    id: delivery.deliveryId,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts.length,
    lastAttemptAt: delivery.lastAttemptAt ?? null,
    nextAttemptAt: delivery.nextAttemptAt ?? null,
    responseStatus: delivery.responseStatus ?? null,
    responseTimeMs: delivery.responseTimeMs ?? null,
    error: delivery.error ?? null,
    createdAt: delivery.createdAt,
    attemptHistory: delivery.attempts.map((attempt) => ({
      at: attempt.at,
      responseStatus: attempt.responseStatus ?? null,
      durationMs: attempt.durationMs,
      error: attempt.error ?? null,
    })),
  };
}
