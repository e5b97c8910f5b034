import { SIGNATURE_HEADER, signWebhook } from './signature.js';

/** The header carrying the event id (the receiver's deduplication key, same on every redelivery). */
export const EVENT_ID_HEADER = 'X-Webhook-Id';

/** The User-Agent of every delivery: the service and its version (package.json `version`). */
export function webhookUserAgent(version: string): string {
  return `social-publishing-api-webhooks/${version}`;
}

/**
 * The headers of one delivery attempt (docs/api-decisions.md#webhooks), with the signature made over exactly
 * `rawBody`, the bytes that are then sent. Each attempt signs afresh at its own time, so a retry a
 * day later still passes a receiver's 300 s tolerance.
 */
export function webhookDeliveryHeaders(input: {
  secret: string;
  eventId: string;
  rawBody: string | Uint8Array;
  timestampSeconds: number;
  version: string;
}): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': webhookUserAgent(input.version),
    [EVENT_ID_HEADER]: input.eventId,
    [SIGNATURE_HEADER]: signWebhook(input.secret, input.timestampSeconds, input.rawBody),
  };
}
