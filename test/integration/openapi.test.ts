import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../shared/http/openapi.js';
import { operations } from '../../shared/operations/registry.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

interface OpenApiOperation {
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: object }[];
  requestBody?: { content: { 'application/json': { schema: object } } };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
  security: object[];
}

describe('GET /v1/openapi.json', () => {
  let host: TestHost;
  let document: {
    openapi: string;
    paths: Record<string, Record<string, OpenApiOperation>>;
    components: { responses: Record<string, { content: Record<string, { example: { error: string } }> }> };
  };

  beforeAll(async () => {
    host = await startTestHost();
    const response = await host.call('/v1/openapi.json');
    expect(response.status).toBe(200);
    document = (await response.json()) as typeof document;
  });
  afterAll(async () => {
    await host.stop();
  });

  it('is an OpenAPI 3.1 document served without a key', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    'describes %s with its route, parameters and schemas',
    (_id, operation) => {
      const entry = document.paths[operation.path]?.[operation.method.toLowerCase()];
      expect(entry?.operationId).toBe(operation.id);
      const pathParams = Object.keys(operation.schemas.params.shape);
      const queryParams = Object.keys(operation.schemas.query.shape);
      expect(entry?.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathParams);
      expect(entry?.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
        expect.arrayContaining(queryParams),
      );
      for (const parameter of entry?.parameters ?? []) expect(parameter.schema).toBeTypeOf('object');
      expect(Boolean(entry?.requestBody)).toBe(Boolean(operation.schemas.body));
      const success = entry?.responses[String(operation.successStatus)];
      expect(success).toBeDefined();
      if (operation.successStatus !== 204)
        expect(success?.content?.[operation.nonJson?.mediaType ?? 'application/json']?.schema).toBeTypeOf(
          'object',
        );
      expect(entry?.security.length).toBe(operation.auth === 'apiKey' ? 1 : 0);
      if (operation.auth === 'apiKey')
        expect(Object.keys(entry?.responses ?? {})).toEqual(expect.arrayContaining(['401', '403', '429']));
      if (operation.workspace !== 'none') expect(Object.keys(entry?.responses ?? {})).toContain('404');
    },
  );

  it('has no operation that the registry does not have', () => {
    const documented = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((entry) => entry.operationId),
    );
    expect(documented.sort()).toEqual(operations.map((operation) => operation.id).sort());
  });

  it('is the document the registry generates, recorded examples included', () => {
    expect(document).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(operations))));
  });

  it('documents 405 as the service answers it: Allow names the methods, the code is method_not_allowed', async () => {
    // Act
    const response = await host.call('/v1/openapi.json', { method: 'PUT' });
    const body = (await response.json()) as { error: string };

    // Assess
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(body.error).toBe(
      document.components.responses.MethodNotAllowed?.content['application/json']?.example.error,
    );
  });
});
