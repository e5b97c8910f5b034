import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdKind, newId } from '../../shared/domain/ids.js';
import type { Operation } from '../../shared/http/operation.js';
import { operations } from '../../shared/operations/registry.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const PARAM_KINDS: Record<string, IdKind> = {
  workspace_id: 'workspace',
  account_id: 'account',
  post_id: 'post',
  media_id: 'media',
  webhook_id: 'webhook',
  delivery_id: 'webhookDelivery',
};

/** `{id}` takes its kind from the collection before it: `/media/{id}` is a media id. */
const COLLECTION_KINDS: Record<string, IdKind> = { media: 'media', webhooks: 'webhook', posts: 'post' };

/** A concrete path for the operation, using tenant A's real ids where the fixture has them. */
function pathFor(operation: Operation, owner: BootstrapResult): string {
  const segments = operation.path.split('/');
  return segments
    .map((segment, index) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      if (!name) return segment;
      if (name === 'workspace_id') return owner.workspaceId;
      if (name === 'account_id') return owner.accounts.twitter;
      if (name === 'platform') return 'twitter';
      const kind = PARAM_KINDS[name] ?? COLLECTION_KINDS[segments[index - 1] ?? ''];
      if (!kind)
        throw new Error(`Matrix test: teach it the kind of path parameter {${name}} in ${operation.path}`);
      return newId(kind);
    })
    .join('/');
}

/** Whether pathFor fills every path parameter with the fixture's own ids (none made up). */
function namesOnlyRealIds(operation: Operation): boolean {
  const real = new Set(['workspace_id', 'account_id', 'platform']);
  return [...operation.path.matchAll(/\{([^}]+)\}/g)].every((match) => real.has(match[1] ?? ''));
}

/**
 * How to break the operation's input: a body of the wrong shape, else a bad `limit`, else a
 * malformed id in the path. Undefined when the operation takes no input to break.
 */
function malformedRequest(
  operation: Operation,
): ((owner: BootstrapResult) => { path: string; body?: string }) | undefined {
  if (operation.schemas.body) return (owner) => ({ path: pathFor(operation, owner), body: '[1, 2, 3]' });
  if ('limit' in operation.schemas.query.shape) {
    return (owner) => ({ path: `${pathFor(operation, owner)}?limit=not-a-number` });
  }
  const idParam = Object.keys(operation.schemas.params.shape).find((name) => name !== 'workspace_id');
  if (!idParam) return undefined;
  return (owner) => {
    const segments = pathFor(operation, owner).split('/');
    segments[operation.path.split('/').indexOf(`{${idParam}}`)] = 'not-an-id';
    return { path: segments.join('/') };
  };
}

const authenticated = operations.filter((operation) => operation.auth === 'apiKey');

describe('every operation in the registry', () => {
  let host: TestHost;
  let owner: BootstrapResult;
  let stranger: BootstrapResult;

  beforeAll(async () => {
    host = await startTestHost();
    owner = await host.admin.bootstrap({ name: 'Owner' });
    stranger = await host.admin.bootstrap({ name: 'Stranger' });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('has a unique id and a unique method and path', () => {
    const ids = operations.map((operation) => operation.id);
    const routes = operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it.each(authenticated.map((operation) => [operation.id, operation] as const))(
    '%s answers 401 unauthorized without an API key',
    async (_id, operation) => {
      const response = await host.call(pathFor(operation, owner), { method: operation.method });
      await expectEnvelope(response, 401, 'unauthorized');
    },
  );

  it.each(authenticated.map((operation) => [operation.id, operation] as const))(
    "%s never shows another tenant's data",
    async (_id, operation) => {
      const response = await host.call(pathFor(operation, owner), {
        method: operation.method,
        apiKey: stranger.apiKey,
        ...(operation.schemas.body && { body: '{}', headers: { 'Content-Type': 'application/json' } }),
      });
      if (operation.workspace === 'none') {
        expect(response.status).toBe(200);
        const text = await response.text();
        expect(text).not.toContain(owner.workspaceId);
        expect(text).not.toContain(owner.tenantId);
      } else {
        await expectEnvelope(response, 404, 'not_found');
      }
    },
  );

  const withBody = authenticated.filter((operation) => operation.schemas.body);
  it.each(withBody.map((operation) => [operation.id, operation] as const))(
    '%s answers 400 INVALID_REQUEST to a malformed JSON body',
    async (_id, operation) => {
      const response = await host.call(pathFor(operation, owner), {
        method: operation.method,
        apiKey: owner.apiKey,
        body: '{"unterminated": ',
        headers: { 'Content-Type': 'application/json' },
      });
      const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(body.details).toEqual({ body: ['Malformed JSON.'] });
    },
  );

  const malformed = authenticated.flatMap((operation) => {
    const breakInput = malformedRequest(operation);
    return breakInput ? [[operation.id, operation, breakInput] as const] : [];
  });
  it.each(malformed)(
    '%s answers 400 INVALID_REQUEST with details to input of the wrong shape',
    async (_id, operation, breakInput) => {
      const request = breakInput(owner);
      const response = await host.call(request.path, {
        method: operation.method,
        apiKey: owner.apiKey,
        ...(request.body !== undefined && {
          body: request.body,
          headers: { 'Content-Type': 'application/json' },
        }),
      });
      const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(Object.values(body.details as Record<string, string[]>).flat().length).toBeGreaterThan(0);
    },
  );

  // A page a browser lands on (the OAuth callback) is not read with a key: its own tests cover it.
  const reads = operations.filter((operation) => operation.method === 'GET' && !operation.nonJson);
  it.each(reads.map((operation) => [operation.id, operation] as const))(
    '%s carries X-Request-Id (and rate-limit headers when it takes a key)',
    async (_id, operation) => {
      const response = await host.call(pathFor(operation, owner), { apiKey: owner.apiKey });
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      if (response.status !== 200) {
        if (namesOnlyRealIds(operation) && operation.auth === 'apiKey') {
          // The fixture's account is X's, whose paid reads a workspace collects only when its setting
          // says so: the read says why (docs/metrics.md).
          await expectEnvelope(response, 409, 'metrics_unavailable');
          return;
        }
        // A GET of a made-up id is a 404 envelope, which also carries the id (checked above); so is
        // the OAuth client metadata of the fixture's network (X), whose servers fetch none.
        await expectEnvelope(response, 404, 'not_found');
        return;
      }
      if (operation.auth === 'apiKey') {
        expect(Number(response.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
        expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
        expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
      }
    },
  );
});
