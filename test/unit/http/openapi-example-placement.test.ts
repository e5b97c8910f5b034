import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument } from '../../../shared/http/openapi.js';
import { type OperationExamples, operationExamples } from '../../../shared/http/openapi-examples.js';
import type { Operation } from '../../../shared/http/operation.js';
import { operations } from '../../../shared/operations/registry.js';

type Json = Record<string, unknown>;

function registryOperation(id: string): Operation {
  const operation = operations.find((candidate) => candidate.id === id);
  if (!operation) throw new Error(`The registry has no operation ${id}.`);
  return operation;
}

function entryOf(document: Json, operation: Operation): Json {
  return ((document.paths as Json)[operation.path] as Json)[operation.method.toLowerCase()] as Json;
}

/** The document as plain JSON to walk. */
const build = (...args: Parameters<typeof buildOpenApiDocument>): Json => buildOpenApiDocument(...args);

const mediaOf = (response: unknown, mediaType = 'application/json') =>
  ((response as Json).content as Json)[mediaType] as Json;

/** Every `example` under the document's paths, with where it is. */
function examplesUnderPaths(document: Json): string[] {
  const found: string[] = [];
  const visit = (value: unknown, path: string) => {
    if (!value || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'example') found.push(path);
      else visit(inner, `${path} ${key}`);
    }
  };
  visit(document.paths, 'paths');
  return found;
}

const createPost = registryOperation('createPost');
const request = { accountId: 'acc_01JNQ41N7P8Q9R0S1T2V3W4XYZ', content: 'Hello', status: 'publish' };
const created = { id: 'pst_01JNQ4Y7M2V8K3D5R6T9W0XBCA', status: 'queued' };
const reused = {
  error: 'idempotency_key_reused',
  message: 'This Idempotency-Key was used with another body.',
};

describe('buildOpenApiDocument with recorded examples', () => {
  it('places none under the paths when there are none', () => {
    expect(examplesUnderPaths(build(operations, {}))).toEqual([]);
  });

  it('sets the request body’s example and each recorded status’s, and leaves the others alone', () => {
    // Act
    const document = build(operations, {
      createPost: { request, responses: { '201': created, '422': reused } },
    });
    const entry = entryOf(document, createPost);
    const responses = entry.responses as Json;

    // Assess
    expect(mediaOf(entry.requestBody).example).toEqual(request);
    expect(mediaOf(responses['201']).example).toEqual(created);
    expect(mediaOf(responses['422']).example).toEqual(reused);
    expect(mediaOf(responses['422']).schema).toEqual(expect.objectContaining({ allOf: expect.any(Array) }));
    expect(examplesUnderPaths(document)).toHaveLength(3);
  });

  it('puts a page under the page’s media type and an envelope under JSON when a status has both', () => {
    // Prepare
    const callback = registryOperation('oauthCallback');
    const page = '<p>This link has expired.</p>';
    const envelope = {
      error: 'INVALID_REQUEST',
      message: 'The request is invalid.',
      details: { state: ['Required'] },
    };

    // Act
    const asPage = entryOf(build(operations, { oauthCallback: { responses: { '400': page } } }), callback)
      .responses as Json;
    const asEnvelope = entryOf(
      build(operations, {
        oauthCallback: { responses: { '400': envelope } },
      }),
      callback,
    ).responses as Json;

    // Assess
    expect(mediaOf(asPage['400'], 'text/html').example).toBe(page);
    expect(mediaOf(asPage['400'])).not.toHaveProperty('example');
    expect(mediaOf(asEnvelope['400']).example).toEqual(envelope);
    expect(mediaOf(asEnvelope['400'], 'text/html')).not.toHaveProperty('example');
  });

  it.each<[string, string, OperationExamples, RegExp]>([
    [
      'a status the operation does not document',
      'createPost',
      { responses: { '418': {} } },
      /does not document 418/,
    ],
    ['a body for a 204', 'deleteMedia', { responses: { '204': {} } }, /204 response has no body/],
    [
      'a request body for an operation that takes none',
      'getPost',
      { request: {}, responses: {} },
      /takes no request body/,
    ],
  ])('refuses an example for %s', (_case, id, examples, message) => {
    expect(() => buildOpenApiDocument(operations, { [id]: examples })).toThrow(message);
  });

  it('uses the recorded examples (openapi-examples.json) unless told otherwise', () => {
    expect(buildOpenApiDocument(operations)).toEqual(buildOpenApiDocument(operations, operationExamples));
  });

  it('has recordings only for operations of the registry', () => {
    const ids = new Set(operations.map((operation) => operation.id));
    expect(Object.keys(operationExamples).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('ignores examples of operations the document does not list', () => {
    // Prepare
    const alone: Operation = {
      ...registryOperation('getMedia'),
      schemas: { ...registryOperation('getMedia').schemas, response: z.object({ id: z.string() }) },
    };

    // Act
    const document = build([alone], {
      createPost: { responses: { '418': {} } },
    });

    // Assess
    expect(examplesUnderPaths(document)).toEqual([]);
  });
});
