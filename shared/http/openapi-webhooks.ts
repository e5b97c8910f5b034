import { EVENT_ID_HEADER } from '../domain/webhooks/delivery-headers.js';
import { DELIVERED_EVENT_TYPES, WEBHOOK_EVENT_SCHEMAS } from '../domain/webhooks/payloads.js';
import { SIGNATURE_HEADER } from '../domain/webhooks/signature.js';
import { webhookExamples } from './openapi-webhook-examples.js';

type JsonSchema = Record<string, unknown>;
/** The tag of every entry of the section. */
export const WEBHOOK_TAG = 'Webhooks';

type SchemaOf = (schema: (typeof WEBHOOK_EVENT_SCHEMAS)[keyof typeof WEBHOOK_EVENT_SCHEMAS]) => JsonSchema;

const deliveryHeaders = [
  {
    name: SIGNATURE_HEADER,
    in: 'header',
    required: true,
    description:
      't=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>", keyed with the webhook secret>. Verify in constant time and refuse a t more than 300 s away (docs/webhooks.md).',
    schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
  },
  {
    name: EVENT_ID_HEADER,
    in: 'header',
    required: true,
    description: 'The event id: the same on every redelivery of one state change. Deduplicate by it.',
    schema: { type: 'string' },
  },
  {
    name: 'User-Agent',
    in: 'header',
    required: true,
    description: 'social-publishing-api-webhooks/<version>',
    schema: { type: 'string' },
  },
];

/**
 * OpenAPI 3.1's top-level `webhooks`: one entry per event the service POSTs to a receiver, with the
 * body schema the dispatcher validates with (shared/domain/webhooks/payloads.ts), the delivery
 * headers, an example body, and what the receiver should answer. Schemas are generated for input,
 * so they say nothing against fields a later version adds. `security` is empty: the receiver
 * authenticates a delivery by its signature header, which no OpenAPI security scheme expresses.
 */
export function buildWebhooksSection(schemaOf: SchemaOf): Record<string, unknown> {
  const examples = webhookExamples();
  return Object.fromEntries(
    DELIVERED_EVENT_TYPES.map((type) => {
      const schema = WEBHOOK_EVENT_SCHEMAS[type];
      return [
        type,
        {
          post: {
            operationId: `webhook.${type}`,
            summary: `The ${type} event`,
            description: `${schema.description ?? type} Authenticate it by its ${SIGNATURE_HEADER} header (the HMAC of the timestamp and the raw body, keyed with the webhook's secret) before trusting the body.`,
            tags: [WEBHOOK_TAG],
            security: [],
            parameters: deliveryHeaders,
            requestBody: {
              required: true,
              description: 'The event, JSON. Verify the signature over the raw bytes, before parsing.',
              content: { 'application/json': { schema: schemaOf(schema), example: examples[type] } },
            },
            responses: {
              '2XX': {
                description:
                  'Received. Answer within 5 s; anything else (another status, a redirect, a time-out) is a failed attempt, retried for about 24 hours.',
              },
            },
          },
        },
      ];
    }),
  );
}
