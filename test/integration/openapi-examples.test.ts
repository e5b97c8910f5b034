import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../shared/domain/errors.js';
import { WEBHOOK_SECRET_PATTERN } from '../../shared/domain/webhooks/signature.js';
import { errorEnvelopeSchema } from '../../shared/http/openapi.js';
import { operationExamples } from '../../shared/http/openapi-examples.js';
import type { Operation } from '../../shared/http/operation.js';
import { errorCodesOf } from '../../shared/http/operation-errors.js';
import { operations } from '../../shared/operations/registry.js';

/**
 * The recorded examples (npm run openapi:examples) against the schemas they illustrate: a change
 * of a schema, an error code or a status that the recording no longer matches fails here, so the
 * document's examples cannot drift from the API silently. Re-record to fix.
 */

/** Operations without a success example, and why. */
const NO_SUCCESS_EXAMPLE: Readonly<Record<string, string>> = {
  // The browser's landing page after consent: HTML with a redirect, no JSON to show.
  oauthCallback: 'answers an HTML page or a redirect',
  // Its success body is the document itself.
  getOpenApi: 'answers the document',
  // Documents in the OAuth standards' shapes, read by a network's authorization server, not by API
  // clients; their content is the network's (the Bluesky section of docs/networks.md shows them).
  oauthClientMetadata: 'answers the OAuth client metadata document',
  oauthClientJwks: 'answers the JSON Web Key Set',
};

/** Operations whose 409 conflict is not recorded, and why. */
const NO_CONFLICT_EXAMPLE: Readonly<Record<string, string>> = {
  createPost: 'answered only while another request with the same Idempotency-Key is still running',
};

const validateEnvelope = new Ajv({ strict: true, keywords: ['example'] }).compile(errorEnvelopeSchema);

const hasBody = (operation: Operation) => operation.successStatus !== 204;
const entries = Object.entries(operationExamples);

function errorCodeOf(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'
    ? body.error
    : undefined;
}

function byId(id: string): Operation {
  const operation = operations.find((candidate) => candidate.id === id);
  if (!operation) throw new Error(`Examples for "${id}", which is not in the registry.`);
  return operation;
}

/** Every recorded error body of an operation, as [status, body]. */
function errorExamples(operation: Operation): [string, unknown][] {
  const examples = operationExamples[operation.id];
  if (!examples) return [];
  const others = Object.entries(examples.otherErrors ?? {}).flatMap(([status, bodies]) =>
    bodies.map((body): [string, unknown] => [status, body]),
  );
  return [
    ...Object.entries(examples.responses).filter(([status]) => status !== String(operation.successStatus)),
    ...others,
  ];
}

describe('recorded OpenAPI examples', () => {
  it('are recorded for operations of the registry only', () => {
    expect(entries.length).toBeGreaterThan(0);
    for (const [id] of entries) expect(() => byId(id), id).not.toThrow();
  });

  it('show a success for every operation that answers a body, except those named with a reason', () => {
    const missing = operations
      .filter((operation) => hasBody(operation) && !(operation.id in NO_SUCCESS_EXAMPLE))
      .filter(
        (operation) =>
          operationExamples[operation.id]?.responses[String(operation.successStatus)] === undefined,
      )
      .map((operation) => operation.id);
    expect(missing).toEqual([]);
  });

  it('show a request for every operation that takes a body, and only for those', () => {
    for (const operation of operations) {
      const request = operationExamples[operation.id]?.request;
      expect(request !== undefined, operation.id).toBe(operation.schemas.body !== undefined);
    }
  });

  it.each(entries)('%s: the request is a valid body for the operation', (id, examples) => {
    const { body } = byId(id).schemas;
    if (examples.request === undefined) return;
    if (!body) throw new Error(`${id} takes no body but has a request example.`);
    const parsed = body.safeParse(examples.request);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it.each(entries)('%s: the success response matches the response schema exactly', (id, examples) => {
    const operation = byId(id);
    const success = examples.responses[String(operation.successStatus)];
    if (success === undefined) return;
    expect(hasBody(operation), `${id} answers ${operation.successStatus} without a body`).toBe(true);
    const parsed = operation.schemas.response.safeParse(success);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    // The response schema strips unknown members: a recorded member the schema does not name would
    // be a field the document does not describe.
    expect(parsed.data).toEqual(success);
  });

  it.each(entries)(
    "%s: each error is the envelope, with one of the operation's codes and its status",
    (id) => {
      const operation = byId(id);
      const codes: readonly string[] = errorCodesOf(operation);
      const errors = errorExamples(operation);
      expect(errors.length, `${id} shows no error`).toBeGreaterThan(0);
      for (const [status, body] of errors) {
        const where = `${id} ${status}`;
        expect(validateEnvelope(body), `${where}: ${JSON.stringify(validateEnvelope.errors)}`).toBe(true);
        const code = errorCodeOf(body);
        expect(codes, where).toContain(code);
        expect(ERROR_STATUS[code as ErrorCode], where).toBe(Number(status));
      }
    },
  );

  it('show under one status each of its error codes at most once', () => {
    for (const [id, examples] of entries) {
      for (const [status, bodies] of Object.entries(examples.otherErrors ?? {})) {
        const shown = [examples.responses[status], ...bodies].map(errorCodeOf);
        expect(new Set(shown).size, `${id} ${status}`).toBe(shown.length);
      }
    }
  });

  it('show the errors a client author meets first', () => {
    const shown = (id: string) =>
      errorExamples(byId(id)).map(([status, body]) => `${status} ${errorCodeOf(body)}`);
    expect(shown('createPost')).toEqual(
      expect.arrayContaining([
        '400 INVALID_REQUEST',
        '403 policy_violation',
        '403 permission_denied',
        '404 not_found',
        '422 VALIDATION_FAILED',
        '422 idempotency_key_reused',
      ]),
    );
    expect(shown('updatePost')).toEqual(expect.arrayContaining(['409 conflict', '422 VALIDATION_FAILED']));
    expect(shown('confirmMedia')).toContain('409 upload_incomplete');
    expect(shown('listWorkspaces')).toEqual(expect.arrayContaining(['401 unauthorized', '429 rate_limited']));
    for (const operation of operations) {
      const path = operation.path.match(/\{[a-z_]+\}/g) ?? [];
      const idsInPath = path.filter((name) => name !== '{platform}');
      if (idsInPath.length > 0) expect(shown(operation.id), operation.id).toContain('400 INVALID_REQUEST');
      if (operation.errors?.includes('conflict') && !(operation.id in NO_CONFLICT_EXAMPLE))
        expect(shown(operation.id), operation.id).toContain('409 conflict');
    }
  });

  it('publish no secret: webhook secrets are the marked fake, no API key, no loopback address', () => {
    const text = JSON.stringify(operationExamples);
    expect(text).not.toMatch(/smcp_[0-9a-f]{64}/);
    expect(text).not.toMatch(/127\.0\.0\.1|localhost/);
    const secret = (operationExamples.createWebhook?.responses['201'] as { secret?: string } | undefined)
      ?.secret;
    expect(secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(secret).toMatch(/^whsec_FAKE/);
  });
});
