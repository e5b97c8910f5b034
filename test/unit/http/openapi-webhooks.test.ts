import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../shared/domain/events.js';
import { WEBHOOK_EVENT_SCHEMAS } from '../../../shared/domain/webhooks/payloads.js';
import { buildOpenApiDocument } from '../../../shared/http/openapi.js';
import { operations } from '../../../shared/operations/registry.js';

type Json = Record<string, unknown>;

describe("the OpenAPI document's webhooks section", () => {
  const built: Json = buildOpenApiDocument(operations, {});
  const document = {
    webhooks: built.webhooks as Record<string, { post: Json }>,
    components: built.components as { schemas: Record<string, Json> },
  };

  it('describes every event the service POSTs, webhook.test included', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual(Object.keys(WEBHOOK_EVENT_SCHEMAS).sort());
    expect(Object.keys(document.webhooks)).toHaveLength(EVENT_TYPES.length + 1);
    expect(Object.keys(document.webhooks)).toEqual(
      expect.arrayContaining(['post.first_comment_published', 'post.first_comment_failed', 'webhook.test']),
    );
  });

  it.each(Object.keys(WEBHOOK_EVENT_SCHEMAS))(
    '%s: the delivered envelope from the dispatcher’s own schema, with the signature headers',
    (type) => {
      // Act
      const entry = document.webhooks[type]?.post as {
        parameters: { name: string; required: boolean }[];
        requestBody: { content: { 'application/json': { schema: { $ref: string } } } };
        responses: Record<string, unknown>;
      };
      const ref = entry.requestBody.content['application/json'].schema.$ref;
      const component = document.components.schemas[ref.replace('#/components/schemas/', '')] as {
        required: string[];
        properties: { type: { const: string }; data: Json };
        additionalProperties?: unknown;
      };

      // Assess
      expect(entry.parameters.filter((p) => p.required).map((p) => p.name)).toEqual([
        'X-Webhook-Signature',
        'X-Webhook-Id',
        'User-Agent',
      ]);
      expect(Object.keys(entry.responses)).toEqual(['2XX']);
      expect(component.properties.type.const).toBe(type);
      expect([...component.required].sort()).toEqual(['createdAt', 'data', 'id', 'type', 'workspaceId']);
      expect(component.properties).not.toHaveProperty('tenantId');
      // Receivers must ignore fields they do not know: the document must not forbid new ones.
      expect(component.additionalProperties).toBeUndefined();
    },
  );

  it.each(Object.entries(WEBHOOK_EVENT_SCHEMAS))(
    '%s: an example body the dispatcher’s schema accepts unchanged, and no security scheme',
    (type, schema) => {
      // Act
      const entry = document.webhooks[type]?.post as {
        security: unknown[];
        requestBody: { content: { 'application/json': { example: Json } } };
      };
      const { example } = entry.requestBody.content['application/json'];

      // Assess
      expect(entry.security).toEqual([]);
      expect(example.type).toBe(type);
      expect(example).not.toHaveProperty('tenantId');
      expect(schema.parse(example)).toEqual(example);
    },
  );

  it('gives every event its own example id, the same on every build', () => {
    // Prepare
    const idsOf = (webhooks: Record<string, { post: Json }>) =>
      Object.values(webhooks).map(
        ({ post }) =>
          (post.requestBody as { content: { 'application/json': { example: Json } } }).content[
            'application/json'
          ].example.id as string,
      );

    // Act
    const again: Json = buildOpenApiDocument(operations, {});

    // Assess
    const ids = idsOf(document.webhooks);
    expect(new Set(ids).size).toBe(ids.length);
    expect(idsOf(again.webhooks as Record<string, { post: Json }>)).toEqual(ids);
  });
});
