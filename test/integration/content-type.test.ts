import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type { Operation } from '../../shared/http/operation.js';
import { operations } from '../../shared/operations/registry.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * Issue 9, finding 5: a body that is not declared JSON is 415 unsupported_media_type, on every
 * operation that takes a body; JSON with any charset and the +json types are accepted.
 */

/** The operation's path with the tenant's workspace and made-up ids for the rest. */
function pathFor(operation: Operation, tenant: BootstrapResult): string {
  return operation.path
    .replace('{workspace_id}', tenant.workspaceId)
    .replace('{post_id}', newId('post'))
    .replace('{media_id}', newId('media'))
    .replace('{webhook_id}', newId('webhook'))
    .replace('{delivery_id}', newId('webhookDelivery'));
}

const withBody = operations.filter((operation) => operation.schemas.body);
const bodyless = operations.filter((operation) => !operation.schemas.body && operation.method === 'POST');

const REFUSED: [string, Record<string, string>][] = [
  ['text/plain', { 'Content-Type': 'text/plain' }],
  ['text/plain; charset=utf-8', { 'Content-Type': 'text/plain; charset=utf-8' }],
  ['multipart/form-data', { 'Content-Type': 'multipart/form-data; boundary=x' }],
  ['application/octet-stream', { 'Content-Type': 'application/octet-stream' }],
  ['application/x-www-form-urlencoded', { 'Content-Type': 'application/x-www-form-urlencoded' }],
  ['text/json', { 'Content-Type': 'text/json' }],
  ['application/jsonp', { 'Content-Type': 'application/jsonp' }],
  ['no Content-Type', {}],
];

const ACCEPTED = [
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON;Charset=UTF-8',
  'application/json; charset=iso-8859-1',
  'application/merge-patch+json',
  'application/vnd.api+json; charset=utf-8',
];

describe('Content-Type of request bodies', () => {
  let host: TestHost;
  let tenant: BootstrapResult;

  /** A JSON text as bytes, so that fetch adds no Content-Type of its own (it would for a string). */
  const send = (operation: Operation, headers: Record<string, string>, body = '{}') =>
    host.call(pathFor(operation, tenant), {
      method: operation.method,
      apiKey: tenant.apiKey,
      headers,
      body: new TextEncoder().encode(body),
    });

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Content types' });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('covers every operation that takes a body', () => {
    expect(withBody.map((operation) => operation.id).sort()).toEqual(
      [
        'connectAccount',
        'createPost',
        'validatePost',
        'createUploadUrl',
        'createWebhook',
        'importMedia',
        'rejectPost',
        'updatePost',
      ].sort(),
    );
  });

  describe.each(withBody.map((operation) => [operation.id, operation] as const))('%s', (_id, operation) => {
    it.each(REFUSED)('answers 415 unsupported_media_type to %s', async (_label, headers) => {
      const response = await send(operation, headers);
      const body = await expectEnvelope(response, 415, 'unsupported_media_type');
      expect(body.message).toMatch(/application\/json/);
    });

    it.each(ACCEPTED)('reads a body sent as %s (and validates it: 400 for {})', async (contentType) => {
      const response = await send(operation, { 'Content-Type': contentType });
      await expectEnvelope(response, 400, 'INVALID_REQUEST');
    });

    it('leaves an empty body to the schema whatever its Content-Type (400)', async () => {
      const response = await host.call(pathFor(operation, tenant), {
        method: operation.method,
        apiKey: tenant.apiKey,
        headers: { 'Content-Type': 'text/plain' },
      });
      await expectEnvelope(response, 400, 'INVALID_REQUEST');
    });
  });

  it('checks the key before the Content-Type: 401 without a key', async () => {
    const createPost = withBody.find((operation) => operation.id === 'createPost') as Operation;
    const response = await host.call(pathFor(createPost, tenant), {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    await expectEnvelope(response, 401, 'unauthorized');
  });

  it.each(bodyless.map((operation) => [operation.id, operation] as const))(
    '%s takes no body: refuses one whatever its Content-Type (400, not 415), and takes {} as none',
    async (_id, operation) => {
      const refused = await send(operation, { 'Content-Type': 'text/plain' }, 'refused');
      const body = await expectEnvelope(refused, 400, 'INVALID_REQUEST');
      expect(body.details).toEqual({ body: ['This operation takes no body: send none, or {}.'] });
      // Nothing to refuse: the operation runs, and finds no such post, media or webhook.
      await expectEnvelope(await send(operation, { 'Content-Type': 'text/plain' }, '{}'), 404, 'not_found');
    },
  );
});
