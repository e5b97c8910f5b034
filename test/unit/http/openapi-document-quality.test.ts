import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_STATUS } from '../../../shared/domain/errors.js';
import { buildOpenApiDocument } from '../../../shared/http/openapi.js';
import type { Operation } from '../../../shared/http/operation.js';
import { operations } from '../../../shared/operations/registry.js';

type Json = Record<string, unknown>;

const document: Json = buildOpenApiDocument(operations, {});
const components = document.components as Record<string, Record<string, Json>>;

/** Every (key, value) pair in a JSON value, depth first. */
function* walk(value: unknown): Generator<{ key: string; value: unknown }> {
  if (Array.isArray(value)) {
    for (const item of value) yield* walk(item);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      yield { key, value: inner };
      yield* walk(inner);
    }
  }
}

function entryOf(operation: Operation, from: Json = document): Json {
  const entry = ((from.paths as Json)[operation.path] as Json | undefined)?.[operation.method.toLowerCase()];
  if (!entry) throw new Error(`The document has no ${operation.method} ${operation.path}.`);
  return entry as Json;
}

function registryOperation(id: string): Operation {
  const operation = operations.find((candidate) => candidate.id === id);
  if (!operation) throw new Error(`The registry has no operation ${id}.`);
  return operation;
}

const successOf = (operation: Operation) =>
  (entryOf(operation).responses as Record<string, Json>)[String(operation.successStatus)] as Json;

/** Every operation object of the document: the paths' and the webhooks'. */
const allEntries = (): Json[] =>
  [document.paths, document.webhooks].flatMap((section) =>
    Object.values(section as Record<string, Json>).flatMap((item) => Object.values(item) as Json[]),
  );

const byId = operations.map((operation) => [operation.id, operation] as const);

describe('the OpenAPI document: info, servers and security scheme', () => {
  it('names a contact and a licence with an SPDX identifier', () => {
    expect(document.info).toMatchObject({
      contact: { name: expect.stringMatching(/\S/) },
      license: { name: expect.stringMatching(/\S/), identifier: expect.stringMatching(/^LicenseRef-/) },
    });
  });

  it('is relative to the deployment serving it, and offers any other base URL as a variable', () => {
    // Act
    const servers = document.servers as Json[];

    // Assess
    expect(servers[0]).toMatchObject({ url: '/' });
    expect(servers[1]).toMatchObject({
      url: '{baseUrl}',
      variables: { baseUrl: { default: 'http://localhost:3000', description: expect.any(String) } },
    });
  });

  it('gives the bearer scheme its token format', () => {
    expect(components.securitySchemes?.apiKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: expect.stringContaining('smcp_'),
    });
  });
});

describe('the OpenAPI document: tags', () => {
  const declared = document.tags as { name: string; description: string }[];

  it('declares every tag an operation or a webhook uses, once, each with a description', () => {
    // Prepare
    const used = new Set(allEntries().flatMap((entry) => entry.tags as string[]));

    // Act
    const names = declared.map((tag) => tag.name);

    // Assess
    expect(new Set(names)).toEqual(used);
    expect(names).toHaveLength(used.size);
    for (const tag of declared) expect(tag.description.length).toBeGreaterThan(20);
  });

  it('refuses to build a document with a tag nobody described', () => {
    // Prepare
    const untagged: Operation = { ...registryOperation('getMedia'), tag: 'Undescribed' };

    // Act
    const build = () => buildOpenApiDocument([untagged], {});

    // Assess
    expect(build).toThrow(/"Undescribed" has no description/);
  });
});

describe('the OpenAPI document: descriptions', () => {
  it.each(byId)('%s: its success response says what it answers, in its own words', (_id, operation) => {
    // Act
    const { description } = successOf(operation);

    // Assess
    expect(operation.successDescription).toEqual(expect.any(String));
    expect(description).toBe(operation.successDescription);
    expect(description).not.toMatch(/^(Success|Done|OK)\.?$/i);
    expect(String(description).length).toBeGreaterThan(15);
  });

  it('gives success descriptions that differ between operations that answer different things', () => {
    // Act
    const descriptions = new Set(operations.map((operation) => successOf(operation).description));

    // Assess: only the short forms repeat their long form's answer.
    const shortForms = operations.filter((operation) => operation.id.endsWith('Short')).length;
    expect(descriptions.size).toBe(operations.length - shortForms);
  });

  it('falls back to the response schema description, then the summary, when an operation has none', () => {
    // Prepare
    const base = { ...registryOperation('getMedia'), successDescription: undefined };
    const described: Operation = {
      ...base,
      schemas: { ...base.schemas, response: z.object({}).describe('The media, as stored.') },
    };
    const bare: Operation = {
      ...base,
      schemas: { ...base.schemas, response: z.object({}) },
    };

    // Act
    const fromSchema = (entryOf(described, buildOpenApiDocument([described], {})).responses as Json)['200'];
    const fromSummary = (entryOf(bare, buildOpenApiDocument([bare], {})).responses as Json)['200'];

    // Assess
    expect(fromSchema).toMatchObject({ description: 'The media, as stored.' });
    expect(fromSummary).toMatchObject({ description: base.summary });
  });

  it('describes every parameter of every operation and webhook', () => {
    // Act
    const undescribed = allEntries().flatMap((entry) =>
      ((entry.parameters ?? []) as Json[])
        .filter((parameter) => typeof parameter.description !== 'string' || parameter.description === '')
        .map((parameter) => `${entry.operationId}: ${parameter.in} ${parameter.name}`),
    );

    // Assess
    expect(allEntries().flatMap((entry) => (entry.parameters ?? []) as Json[]).length).toBeGreaterThan(40);
    expect(undescribed).toEqual([]);
  });
});

describe('the OpenAPI document: integer bounds', () => {
  it('carries none of the safe-integer bounds zod gives every integer', () => {
    // Act
    const noise = [...walk(document)].filter(
      ({ key, value }) =>
        (key === 'minimum' || key === 'maximum') &&
        (value === Number.MAX_SAFE_INTEGER || value === Number.MIN_SAFE_INTEGER),
    );

    // Assess
    expect(noise).toEqual([]);
  });

  it('keeps the bounds a schema states and drops only the safe-integer ones', () => {
    // Prepare
    const counted: Operation = {
      ...registryOperation('listMedia'),
      schemas: {
        ...registryOperation('listMedia').schemas,
        query: z.object({
          offset: z.int().nonnegative().optional().describe('From.'),
          any: z.int().optional().describe('Any.'),
          page: z.int().min(1).max(50).optional().describe('Page.'),
        }),
      },
    };

    // Act
    const parameters = entryOf(counted, buildOpenApiDocument([counted], {})).parameters as Json[];
    const schemaOf = (name: string) => parameters.find((parameter) => parameter.name === name)?.schema;

    // Assess
    expect(schemaOf('offset')).toEqual({ type: 'integer', minimum: 0, description: 'From.' });
    expect(schemaOf('any')).toEqual({ type: 'integer', description: 'Any.' });
    expect(schemaOf('page')).toEqual({ type: 'integer', minimum: 1, maximum: 50, description: 'Page.' });
  });
});

describe('the OpenAPI document: headers', () => {
  const headersOf = (response: Json) => Object.keys((response.headers ?? {}) as Json);

  it('marks createPost’s success with Idempotent-Replayed, and only operations taking an Idempotency-Key', () => {
    // Act
    const withReplay = operations.filter((operation) =>
      headersOf(successOf(operation)).includes('Idempotent-Replayed'),
    );
    const takingKey = operations.filter((operation) =>
      ((entryOf(operation).parameters ?? []) as Json[]).some(
        (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
      ),
    );

    // Assess
    expect(withReplay.map((operation) => operation.id)).toEqual(['createPost']);
    expect(takingKey.map((operation) => operation.id)).toEqual(['createPost']);
    expect(successOf(registryOperation('createPost')).headers).toMatchObject({
      'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' },
    });
    expect(components.headers?.['Idempotent-Replayed']).toMatchObject({
      schema: { type: 'string', enum: ['true'] },
      description: expect.stringContaining('Idempotency-Key'),
    });
  });

  it.each(byId)('%s: X-Request-Id on every response, X-RateLimit-* on a keyed success', (_id, operation) => {
    // Act
    const responses = Object.values(entryOf(operation).responses as Record<string, Json>);

    // Assess
    for (const response of responses) expect(headersOf(response)).toContain('X-Request-Id');
    const rateLimit = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
    if (operation.auth === 'apiKey')
      expect(headersOf(successOf(operation))).toEqual(expect.arrayContaining(rateLimit));
    else for (const name of rateLimit) expect(headersOf(successOf(operation))).not.toContain(name);
  });

  it('puts Retry-After on every 429 and 503 and on no other status', () => {
    // Act
    const statusesWithRetryAfter = new Set(
      operations.flatMap((operation) =>
        Object.entries(entryOf(operation).responses as Record<string, Json>)
          .filter(([, response]) => headersOf(response).includes('Retry-After'))
          .map(([status]) => status),
      ),
    );

    // Assess
    expect([...statusesWithRetryAfter].sort()).toEqual([
      String(ERROR_STATUS.rate_limited),
      String(ERROR_STATUS.service_unavailable),
    ]);
    expect(components.headers?.['Retry-After']).toMatchObject({ schema: { type: 'integer' } });
  });
});

describe('the OpenAPI document: 405', () => {
  const methodNotAllowed = components.responses?.MethodNotAllowed as Json;

  it('is a component with the Allow header and the envelope pinned to method_not_allowed', () => {
    // Act
    const media = (methodNotAllowed.content as Json)['application/json'] as Json;

    // Assess
    expect(methodNotAllowed.headers).toMatchObject({
      Allow: { required: true, schema: { type: 'string' } },
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    });
    expect(media.schema).toEqual({
      allOf: [
        { $ref: '#/components/schemas/Error' },
        { properties: { error: { enum: ['method_not_allowed'] } } },
      ],
    });
    expect(media.example).toMatchObject({ error: 'method_not_allowed', message: expect.any(String) });
  });

  it('is in info.description and in no operation: a generated client cannot send an unlisted method', () => {
    expect((document.info as Json).description).toMatch(/405[\s\S]*MethodNotAllowed/);
    for (const operation of operations) expect(entryOf(operation).responses).not.toHaveProperty('405');
  });
});

describe('the OpenAPI document: components', () => {
  it('refers to every component but MethodNotAllowed (what Redocly’s no-unused-components would check)', () => {
    // Prepare
    const refs = new Set(
      [...walk(document)].filter(({ key }) => key === '$ref').map(({ value }) => String(value)),
    );
    const defined = Object.entries(components)
      .filter(([kind]) => kind !== 'securitySchemes')
      .flatMap(([kind, named]) => Object.keys(named).map((name) => `#/components/${kind}/${name}`));

    // Act
    const unused = defined.filter((pointer) => !refs.has(pointer));

    // Assess
    expect(defined.length).toBeGreaterThan(10);
    expect(unused).toEqual(['#/components/responses/MethodNotAllowed']);
  });
});

describe('the OpenAPI document: webhooks', () => {
  it('needs no security scheme on any webhook: the receiver checks the signature header', () => {
    const webhooks = Object.values(document.webhooks as Record<string, { post: Json }>);
    expect(webhooks.length).toBeGreaterThan(0);
    for (const { post } of webhooks) {
      expect(post.security).toEqual([]);
      expect(post.description).toContain('X-Webhook-Signature');
    }
  });
});
