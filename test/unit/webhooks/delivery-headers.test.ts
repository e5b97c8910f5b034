import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  webhookDeliveryHeaders,
  webhookUserAgent,
} from '../../../shared/domain/webhooks/delivery-headers.js';
import { newWebhookSecret, verifyWebhookSignature } from '../../../shared/domain/webhooks/signature.js';

const SECRET = newWebhookSecret();
const NOW = 1_900_000_000;
const BODY = '{"id":"evt_01JD0000000000000000000000","type":"post.queued"}';

describe('webhookDeliveryHeaders', () => {
  it('are the four of docs/webhooks.md, the signature made over the very body sent', () => {
    // Act
    const headers = webhookDeliveryHeaders({
      secret: SECRET,
      eventId: 'evt_01JD0000000000000000000000',
      rawBody: BODY,
      timestampSeconds: NOW,
      version: '0.1.0',
    });

    // Assess
    expect(Object.keys(headers)).toEqual([
      'Content-Type',
      'User-Agent',
      'X-Webhook-Id',
      'X-Webhook-Signature',
    ]);
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'User-Agent': 'social-publishing-api-webhooks/0.1.0',
      'X-Webhook-Id': 'evt_01JD0000000000000000000000',
    });
    const signature = headers['X-Webhook-Signature'];
    expect(verifyWebhookSignature(SECRET, signature, BODY, NOW)).toEqual({ valid: true, timestamp: NOW });
    expect(
      Stripe.webhooks.signature?.verifyHeader(BODY, signature ?? '', SECRET, 300, undefined, NOW * 1000),
    ).toBe(true);
  });

  it('sign each attempt at its own time, so a retry a day later is still fresh', () => {
    const later = NOW + 86_400;
    const retry = webhookDeliveryHeaders({
      secret: SECRET,
      eventId: 'evt_01JD0000000000000000000000',
      rawBody: BODY,
      timestampSeconds: later,
      version: '0.1.0',
    });
    expect(verifyWebhookSignature(SECRET, retry['X-Webhook-Signature'], BODY, later).valid).toBe(true);
    expect(retry['X-Webhook-Id']).toBe('evt_01JD0000000000000000000000');
  });

  it('name the service and its version in the User-Agent', () => {
    expect(webhookUserAgent('1.2.3')).toBe('social-publishing-api-webhooks/1.2.3');
  });
});
