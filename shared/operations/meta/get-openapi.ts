import * as z from 'zod';
import { buildOpenApiDocument } from '../../http/openapi.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import { noParams, noQuery } from '../common-schemas.js';

/** The document is built on first request from the registry it is handed (which includes itself). */
export function makeGetOpenApi(operations: () => readonly Operation[]) {
  let document: unknown;
  return defineOperation({
    id: 'getOpenApi',
    method: 'GET',
    path: '/v1/openapi.json',
    summary: 'The OpenAPI 3.1 document of this API',
    description: 'Generated from the same schemas the service validates requests with. Needs no API key.',
    tag: 'Meta',
    auth: 'none',
    rateLimitFamily: 'other',
    workspace: 'none',
    successStatus: 200,
    successDescription: 'This document: OpenAPI 3.1, JSON.',
    schemas: { params: noParams, query: noQuery, response: z.record(z.string(), z.unknown()) },
    async handler() {
      document ??= buildOpenApiDocument(operations());
      return document as Record<string, unknown>;
    },
  });
}
