import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../../../shared/domain/errors.js';
import { buildOpenApiDocument } from '../../../shared/http/openapi.js';
import { defineOperation, type Operation } from '../../../shared/http/operation.js';
import { errorCodesOf } from '../../../shared/http/operation-errors.js';
import { operations } from '../../../shared/operations/registry.js';

type Json = Record<string, unknown>;

/** Without recorded examples: these tests are about the document's shape, not the recordings. */
const document: Json = buildOpenApiDocument(operations, {});

/** Every (JSON-pointer path, key, value) in the document, depth first. */
function* walk(value: unknown, path = '#'): Generator<{ path: string; key: string; value: unknown }> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* walk(item, `${path}/${index}`);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      yield { path, key, value: inner };
      yield* walk(inner, `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    }
  }
}

/** Resolves a local `#/a/b` reference in the document, or undefined when it names nothing. */
function resolve(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!current || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Json)[key];
  }
  return current;
}

const pathItem = (operation: Operation) =>
  ((document.paths as Json)[operation.path] as Json | undefined)?.[operation.method.toLowerCase()] as
    | Json
    | undefined;

/** The operation object of `operation`; fails the test when the document lacks it. */
function entryOf(operation: Operation): Json {
  const entry = pathItem(operation);
  if (!entry) throw new Error(`The document has no ${operation.method} ${operation.path}.`);
  return entry;
}

function registryOperation(id: string): Operation {
  const operation = operations.find((candidate) => candidate.id === id);
  if (!operation) throw new Error(`The registry has no operation ${id}.`);
  return operation;
}

describe('buildOpenApiDocument over the registry', () => {
  it('is an OpenAPI 3.1.0 document', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document).toHaveProperty('info.title');
    expect(document).toHaveProperty('info.version');
  });

  it('is plain JSON: it survives a serialisation round trip unchanged', () => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    'lists %s under its path and method with its operationId',
    (_id, operation) => {
      // Act
      const entry = pathItem(operation);

      // Assess
      expect(entry).toBeDefined();
      expect(entry?.operationId).toBe(operation.id);
    },
  );

  it('has no operation beyond the registry, and operationIds are unique', () => {
    // Act
    const ids = Object.values(document.paths as Record<string, Json>).flatMap((item) =>
      Object.values(item).map((entry) => (entry as Json).operationId),
    );

    // Assess
    expect(ids.sort()).toEqual(operations.map((operation) => operation.id).sort());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    'declares every path and query parameter of %s',
    (_id, operation) => {
      // Prepare
      const expectedPath = Object.keys(operation.schemas.params.shape).sort();
      const expectedQuery = Object.keys(operation.schemas.query.shape);
      if (operation.workspace === 'implicit') expectedQuery.push('workspaceId');
      const templateNames = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((found) => found[1]).sort();

      // Act
      const parameters = (entryOf(operation).parameters ?? []) as Json[];
      const inPath = parameters.filter((parameter) => parameter.in === 'path');
      const inQuery = parameters.filter((parameter) => parameter.in === 'query');

      // Assess
      expect(inPath.map((parameter) => parameter.name).sort()).toEqual(expectedPath);
      expect(expectedPath).toEqual(templateNames);
      expect(inQuery.map((parameter) => parameter.name).sort()).toEqual(expectedQuery.sort());
      for (const parameter of inPath) expect(parameter.required).toBe(true);
      for (const parameter of parameters) expect(parameter.schema).toEqual(expect.any(Object));
    },
  );

  it('marks optional and defaulted query parameters as not required', () => {
    // Act
    const parameters = entryOf(registryOperation('listAccounts')).parameters as Json[];

    // Assess
    expect(parameters.find((parameter) => parameter.name === 'limit')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    });
    expect(parameters.find((parameter) => parameter.name === 'platform')).toMatchObject({
      in: 'query',
      required: false,
    });
    expect(parameters.find((parameter) => parameter.name === 'workspace_id')).toMatchObject({
      in: 'path',
      required: true,
      schema: { type: 'string', pattern: expect.stringContaining('wks_') },
    });
  });

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    'gives %s a success response with a schema of its media type (JSON unless it says otherwise)',
    (_id, operation) => {
      // Act
      const success = (entryOf(operation).responses as Json)[String(operation.successStatus)] as Json;

      // Assess
      expect(success).toBeDefined();
      if (operation.successStatus === 204) return;
      const schema = (success.content as Json)[operation.nonJson?.mediaType ?? 'application/json'] as Json;
      expect(schema.schema).toEqual(expect.any(Object));
      expect(Object.keys(schema.schema as Json).length).toBeGreaterThan(0);
    },
  );

  /** The codes a documented error response pins `error` to, and the schema it extends. */
  const codesOf = (response: Json) => {
    const schema = ((response.content as Json)['application/json'] as Json).schema as Json;
    const [base, pinned] = schema.allOf as [Json, Json];
    return { base, codes: ((pinned.properties as Json).error as Json).enum as string[] };
  };

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    'documents for %s every code errorCodesOf derives, under its own status, and nothing else',
    (_id, operation) => {
      // Act
      const responses = entryOf(operation).responses as Record<string, Json>;
      const documented = Object.entries(responses)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([status, response]) => {
          const { base, codes } = codesOf(response);
          expect(base).toEqual({ $ref: '#/components/schemas/Error' });
          for (const code of codes) expect(response.description).toContain(`\`${code}\``);
          return codes.map((code) => [code, Number(status)] as const);
        });

      // Assess
      expect(documented.map(([code]) => code).sort()).toEqual([...errorCodesOf(operation)].sort());
      for (const [code, status] of documented) expect(status).toBe(ERROR_STATUS[code as ErrorCode]);
    },
  );

  it.each<[string, number[]]>([
    ['listWorkspaces', [400, 401, 403, 413, 429, 500, 503]],
    ['listAccounts', [400, 401, 403, 404, 413, 429, 500, 503]],
    ['createPost', [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503]],
    ['updatePost', [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503]],
    ['cancelPost', [400, 401, 403, 404, 409, 413, 429, 500, 503]],
    ['rejectPost', [400, 401, 403, 404, 409, 413, 415, 429, 500, 503]],
    ['createUploadUrl', [400, 401, 403, 404, 413, 415, 429, 500, 503]],
    ['confirmMedia', [400, 401, 403, 404, 409, 413, 429, 500, 503]],
    ['importMedia', [400, 401, 403, 404, 413, 415, 429, 500, 503]],
    ['deleteMediaShort', [400, 401, 403, 404, 413, 429, 500, 503]],
    ['getOpenApi', [400, 413, 500]],
  ])('gives %s the error statuses %j', (id, statuses) => {
    // Act
    const responses = entryOf(registryOperation(id)).responses as Json;

    // Assess
    expect(
      Object.keys(responses)
        .map(Number)
        .filter((status) => status >= 400),
    ).toEqual(statuses);
  });

  it('groups the codes of one status in one response: 403 of createPost', () => {
    // Act
    const forbidden = (entryOf(registryOperation('createPost')).responses as Record<string, Json>)[
      '403'
    ] as Json;

    // Assess
    expect(codesOf(forbidden).codes.sort()).toEqual([
      'permission_denied',
      'plan_inactive',
      'policy_violation',
    ]);
  });

  it('derives 503 from the storage a key look-up reads and the media storage an operation uses, and 409 from what it declares', () => {
    // Prepare
    const bare = defineOperation({
      ...registryOperation('getMedia'),
      id: 'bare',
      auth: 'none',
      errors: [],
      resources: [],
    }) as Operation;

    // Act
    const plain = errorCodesOf(bare);
    const withKey = errorCodesOf({ ...bare, auth: 'apiKey' });
    const withStorage = errorCodesOf({ ...bare, resources: ['media-read'] });
    const withConflict = errorCodesOf({ ...bare, errors: ['conflict'] });

    // Assess
    expect(plain).not.toContain('service_unavailable');
    expect(withKey).toContain('service_unavailable');
    expect(withStorage).toContain('service_unavailable');
    expect(withConflict).toContain('conflict');
    expect(errorCodesOf({ ...bare, resources: ['idempotency-table'] })).not.toContain('service_unavailable');
  });

  it('tells clients the Retry-After of a 429', () => {
    // Act
    const tooMany = (entryOf(registryOperation('listWorkspaces')).responses as Record<string, Json>)['429'];

    // Assess
    expect(tooMany?.headers).toHaveProperty('Retry-After');
  });

  it('describes the error envelope with error and message required, and every extra member', () => {
    expect(resolve('#/components/schemas/Error')).toMatchObject({
      type: 'object',
      required: ['error', 'message'],
      properties: {
        error: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'object' },
        errors: {
          type: 'array',
          items: { required: ['field', 'code', 'message'], properties: { limit: { type: 'number' } } },
        },
        facet: { enum: ['platform', 'content', 'schedule', 'media'] },
        reason: { type: 'string' },
        required: { type: 'string' },
        available_workspaces: { type: 'array', items: { type: 'string' } },
      },
    });
  });

  it('refers to the shared Account schemas from the account responses', () => {
    // Act
    const getAccount = entryOf(registryOperation('getAccount'));
    const one = ((getAccount.responses as Json)['200'] as Json).content as Json;
    const listAccounts = entryOf(registryOperation('listAccounts'));
    const list = (((listAccounts.responses as Json)['200'] as Json).content as Json)[
      'application/json'
    ] as Json;

    // Assess
    expect(one).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/AccountDetail' } } });
    expect(((list.schema as Json).properties as Json).data).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Account' },
    });
    expect(resolve('#/components/schemas/Account')).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' }, platform: { enum: expect.arrayContaining(['twitter']) } },
    });
    expect(resolve('#/components/schemas/AccountDetail')).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' }, usage: { type: 'object' } },
    });
  });

  it('leaves no $defs and no $schema anywhere', () => {
    // Act
    const leftovers = [...walk(document)].filter(({ key }) => key === '$defs' || key === '$schema');

    // Assess
    expect(leftovers).toEqual([]);
  });

  it('makes every $ref point to something that exists in the document', () => {
    // Act
    const refs = [...walk(document)].filter(({ key }) => key === '$ref');
    const dangling = refs.filter(({ value }) => typeof value !== 'string' || resolve(value) === undefined);

    // Assess
    expect(refs.length).toBeGreaterThan(0);
    expect(dangling).toEqual([]);
  });

  it('secures the apiKey operations with the bearer scheme and leaves the document itself open', () => {
    for (const operation of operations) {
      const expected = operation.auth === 'apiKey' ? [{ apiKey: [] }] : [];
      expect(entryOf(operation).security).toEqual(expected);
    }
    expect(resolve('#/components/securitySchemes/apiKey')).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('buildOpenApiDocument for an implicit-workspace operation', () => {
  const deleteMedia = defineOperation({
    id: 'deleteMediaShort',
    method: 'DELETE',
    path: '/v1/media/{media_id}',
    summary: 'Delete media',
    description: 'Workspace-less short form.',
    tag: 'Media',
    auth: 'apiKey',
    permission: 'media:write',
    rateLimitFamily: 'other',
    workspace: 'implicit',
    successStatus: 204,
    schemas: {
      params: z.object({ media_id: z.string() }),
      query: z.object({}),
      response: z.undefined(),
    },
    async handler() {
      return undefined;
    },
  }) as Operation;

  it('adds the optional workspaceId query parameter and a body-less 204', () => {
    // Act
    const entry = ((buildOpenApiDocument([deleteMedia], {}).paths as Json)['/v1/media/{media_id}'] as Json)
      .delete as Json;

    // Assess
    expect(entry.parameters).toEqual([
      expect.objectContaining({ name: 'media_id', in: 'path', required: true }),
      expect.objectContaining({ name: 'workspaceId', in: 'query', required: false }),
    ]);
    expect((entry.responses as Json)['204']).not.toHaveProperty('content');
    expect(entry['x-permission']).toBe('media:write');
  });
});

describe('buildOpenApiDocument for an operation that answers a browser (not JSON)', () => {
  const landing = defineOperation({
    id: 'testLanding',
    method: 'GET',
    path: '/v1/landing',
    summary: 'A page',
    description: 'Answers HTML or a redirect.',
    tag: 'Accounts',
    auth: 'none',
    rateLimitFamily: 'other',
    workspace: 'none',
    successStatus: 200,
    nonJson: {
      mediaType: 'text/html',
      otherStatuses: {
        302: { description: 'Elsewhere.', headers: { Location: 'Where to.' }, hasBody: false },
        400: { description: 'A page saying what went wrong.', hasBody: true },
      },
    },
    schemas: { params: z.object({}), query: z.object({ state: z.string() }), response: z.string() },
    async handler() {
      return '<p>hi</p>';
    },
  }) as Operation;

  const responses = (((buildOpenApiDocument([landing], {}).paths as Json)['/v1/landing'] as Json).get as Json)
    .responses as Record<string, Json>;

  it('describes the success body with its media type, the redirect with its Location header', () => {
    expect(responses['200']?.content).toEqual({ 'text/html': { schema: { type: 'string' } } });
    expect(responses['302']).not.toHaveProperty('content');
    expect(responses['302']?.headers).toMatchObject({
      'X-Request-Id': expect.any(Object),
      Location: { schema: { type: 'string' }, description: 'Where to.' },
    });
  });

  it('gives a status answered both as a page and as the error envelope both media types', () => {
    const bad = responses['400'] as Json;
    expect(Object.keys(bad.content as Json).sort()).toEqual(['application/json', 'text/html']);
    expect(bad.description).toMatch(/A page saying what went wrong\.[\s\S]*INVALID_REQUEST/);
  });
});
