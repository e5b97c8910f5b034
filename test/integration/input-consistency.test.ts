import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { connectMcp, type McpSession } from '../e2e/mcp/support.js';
import { expectEnvelope } from '../support/envelope.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/** `utc` (an ISO string in Z) written as the same instant at `offset` (`+01:00`, `-05:00`). */
function atOffset(utc: string, offset: string): string {
  const sign = offset.startsWith('-') ? -1 : 1;
  const [hours = 0, minutes = 0] = offset.slice(1).split(':').map(Number);
  const shifted = new Date(Date.parse(utc) + sign * (hours * 60 + minutes) * 60_000);
  return shifted.toISOString().replace(/\.\d{3}Z$/, offset);
}

/** A whole second some hours ahead, in UTC with milliseconds, as the service answers times. */
const hoursAhead = (hours: number) =>
  new Date(Math.ceil((Date.now() + hours * 3_600_000) / 1000) * 1000).toISOString();

/** The JSON schema a `$ref` of the served document points at, or the schema itself. */
function resolved(document: { components: { schemas: Record<string, unknown> } }, schema: unknown) {
  const ref = (schema as { $ref?: string }).$ref;
  return (ref ? document.components.schemas[ref.replace('#/components/schemas/', '')] : schema) as {
    properties: Record<string, { pattern?: string; format?: string; description?: string }>;
  };
}

/** A GET with a body, over plain HTTP: fetch refuses to send one. */
function getWithBody(baseUrl: string, path: string, apiKey: string, body: string) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const sent = Buffer.from(body);
    const req = httpRequest(
      new URL(path, baseUrl),
      {
        method: 'GET',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'content-length': String(sent.length),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(sent);
  });
}

const NO_BODY_TAKEN = { body: ['This operation takes no body: send none, or {}.'] };

/**
 * One rule for input a caller gets wrong, whichever part of the request carries it: a malformed id
 * (the workspace's included) is 400 INVALID_REQUEST naming the parameter, a well-formed id that
 * names nothing the caller can see is 404.
 */
describe('input consistency', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let mcp: McpSession;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Consistency' });
    mcp = await connectMcp(host, tenant.apiKey);
  });
  afterAll(async () => {
    await mcp.close();
    await host.stop();
  });

  describe('a malformed path id', () => {
    it.each([
      ['GET', '/v1/workspaces/not-a-workspace/posts'],
      ['GET', '/v1/workspaces/pst_01ARZ3NDEKTSV4RRFFQ69G5FAV/accounts'],
      ['POST', '/v1/workspaces/wks-01ARZ3NDEKTSV4RRFFQ69G5FAV/posts/pst_01ARZ3NDEKTSV4RRFFQ69G5FAV/approve'],
      ['DELETE', '/v1/workspaces/nope/media/med_01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ])('in the workspace segment is 400 naming workspace_id (%s %s)', async (method, path) => {
      const response = await host.call(path, { method, apiKey: tenant.apiKey });
      const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(body.details).toEqual({ workspace_id: ['Expected an id starting with wks_.'] });
    });

    it('in another segment is 400 naming that parameter, as before', async () => {
      const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/posts/not-a-post`, {
        apiKey: tenant.apiKey,
      });
      const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(body.details).toEqual({ post_id: ['Expected an id starting with pst_.'] });
    });

    it('is still 401 without a key: the key is checked first', async () => {
      await expectEnvelope(await host.call('/v1/workspaces/not-a-workspace/posts'), 401, 'unauthorized');
    });

    it('a well-formed workspace id the key cannot see stays 404', async () => {
      const response = await host.call(`/v1/workspaces/${newId('workspace')}/posts`, {
        apiKey: tenant.apiKey,
      });
      await expectEnvelope(response, 404, 'not_found');
    });
  });

  describe("the short forms' ?workspaceId=", () => {
    const mediaPath = () => `/v1/media/${newId('media')}`;

    it.each([
      ['a foreign prefix', `pst_01ARZ3NDEKTSV4RRFFQ69G5FAV`],
      ['no prefix', 'not-a-workspace'],
      ['an empty value', ''],
    ])('is 400 naming workspaceId for %s', async (_name, value) => {
      const response = await host.call(`${mediaPath()}?workspaceId=${value}`, {
        method: 'DELETE',
        apiKey: tenant.apiKey,
      });
      const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(Object.keys(body.details as object)).toEqual(['workspaceId']);
    });

    it('a well-formed one the key cannot see stays 404', async () => {
      const foreign = await host.call(`${mediaPath()}?workspaceId=${newId('workspace')}`, {
        method: 'DELETE',
        apiKey: tenant.apiKey,
      });
      await expectEnvelope(foreign, 404, 'not_found');
    });
  });

  describe('MCP tools', () => {
    it('answer a malformed workspaceId as REST does, named as the argument', async () => {
      const call = await mcp.call('listPosts', { workspaceId: 'not-a-workspace' });
      expect(call.isError).toBe(true);
      expect(call.status).toBe(400);
      expect(call.body).toMatchObject({
        error: 'INVALID_REQUEST',
        details: { workspaceId: ['Expected an id starting with wks_.'] },
      });
    });

    it('answer a missing workspaceId with 400 naming it, not 404', async () => {
      const call = await mcp.call('listPosts', {});
      expect(call.status).toBe(400);
      expect(call.body).toMatchObject({
        error: 'INVALID_REQUEST',
        details: { workspaceId: [expect.any(String)] },
      });
    });

    it('answer a well-formed workspace id the key cannot see with 404', async () => {
      const call = await mcp.call('listPosts', { workspaceId: newId('workspace') });
      expect(call.status).toBe(404);
      expect(call.body?.error).toBe('not_found');
    });
  });

  describe('times a caller sends take any offset, and are answered in UTC', () => {
    it('creates at +01:00 and reads the post back in Z, at the same instant', async () => {
      const posts = postsClient(host, tenant);
      const at = hoursAhead(3);
      const created = await posts.create(
        tweet(tenant, { status: 'scheduled', scheduledAt: atOffset(at, '+01:00') }),
      );
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const read = (await (await posts.get(id)).json()) as { scheduledAt: string };
      expect(read.scheduledAt).toBe(at);
    });

    it('a PATCH at -05:00 stores the same instant in Z', async () => {
      const posts = postsClient(host, tenant);
      const created = await posts.create(tweet(tenant, { status: 'draft' }));
      const { id } = (await created.json()) as { id: string };
      const at = hoursAhead(5);
      const patched = await posts.patch(id, { scheduledAt: atOffset(at, '-05:00') });
      expect(patched.status).toBe(200);
      expect(((await patched.json()) as { scheduledAt: string }).scheduledAt).toBe(at);
    });

    it('validate takes an offset too, and reads the time at that offset', async () => {
      const validate = (scheduledAt: string) =>
        host.call(`/v1/workspaces/${tenant.workspaceId}/posts/validate`, {
          method: 'POST',
          apiKey: tenant.apiKey,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(tweet(tenant, { status: 'scheduled', scheduledAt })),
        });
      const ahead = await validate(atOffset(hoursAhead(2), '+01:00'));
      expect(((await ahead.json()) as { valid: boolean }).valid).toBe(true);
      // Read as UTC it would be 30 minutes ahead; at +01:00 it was 30 minutes ago.
      const wallTime = `${new Date(Date.now() + 1_800_000).toISOString().slice(0, 19)}+01:00`;
      const result = (await (await validate(wallTime)).json()) as {
        valid: boolean;
        errors: { code: string }[];
      };
      expect(result.valid).toBe(false);
      expect(result.errors[0]?.code).toBe('SCHEDULED_AT_IN_PAST');
    });

    it('the same instant in another offset is the same create for an Idempotency-Key', async () => {
      const posts = postsClient(host, tenant);
      const at = hoursAhead(7);
      const key = { 'Idempotency-Key': `offsets-${Date.now()}` };
      const first = await posts.create(tweet(tenant, { status: 'scheduled', scheduledAt: at }), key);
      const again = await posts.create(
        tweet(tenant, { status: 'scheduled', scheduledAt: atOffset(at, '+02:00') }),
        key,
      );
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.json()).toEqual(await first.json());
    });

    it('list filters take offsets (+ sent as %2B), compared in UTC', async () => {
      const posts = postsClient(host, tenant);
      const at = hoursAhead(30);
      const created = await posts.create(tweet(tenant, { status: 'scheduled', scheduledAt: at }));
      const { id } = (await created.json()) as { id: string };
      const around = (from: string, to: string) =>
        posts.list(
          `?status=scheduled&scheduledFrom=${encodeURIComponent(from)}&scheduledTo=${encodeURIComponent(to)}`,
        );
      const hit = await around(atOffset(at, '+03:00'), atOffset(at, '-04:00'));
      expect(hit.status).toBe(200);
      expect(((await hit.json()) as { data: { id: string }[] }).data.map((post) => post.id)).toEqual([id]);
      // Inverted once both are read in UTC: from is a second after to.
      const inverted = await around(
        atOffset(new Date(Date.parse(at) + 1000).toISOString(), '-04:00'),
        atOffset(at, '+03:00'),
      );
      await expectEnvelope(inverted, 400, 'INVALID_REQUEST');
    });

    it.each([
      ['a local time without Z or an offset', '2030-01-01T10:00:00'],
      ['an offset without its colon', '2030-01-01T10:00:00+0100'],
      ['an offset out of range', '2030-01-01T10:00:00+25:00'],
      ['a date alone', '2030-01-01'],
    ])('refuses %s with 400 naming scheduledAt', async (_name, scheduledAt) => {
      const response = await postsClient(host, tenant).create(
        tweet(tenant, { status: 'scheduled', scheduledAt }),
      );
      const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(body.details).toEqual({
        scheduledAt: [
          'Expected an ISO 8601 timestamp with Z or an offset, e.g. 2026-12-01T09:30:00Z or 2026-12-01T10:30:00+01:00.',
        ],
      });
    });

    it('the document says so: input times match offsets, answered times are Z only', async () => {
      const served = await host.call('/v1/openapi.json');
      const document = (await served.json()) as {
        paths: Record<string, Record<string, Record<string, unknown>>>;
        components: { schemas: Record<string, unknown> };
      };
      const create = document.paths['/v1/workspaces/{workspace_id}/posts']?.post as {
        requestBody: { content: Record<string, { schema: unknown }> };
      };
      const input = resolved(document, create.requestBody.content['application/json']?.schema).properties
        .scheduledAt;
      expect(input?.format).toBe('date-time');
      expect(input?.description).toContain('any offset');
      expect(new RegExp(input?.pattern ?? '^$').test('2026-12-01T10:30:00+01:00')).toBe(true);
      expect(new RegExp(input?.pattern ?? '^$').test('2026-12-01T10:30:00Z')).toBe(true);

      const list = document.paths['/v1/workspaces/{workspace_id}/posts']?.get as {
        parameters: { name: string; schema: { pattern?: string } }[];
      };
      const from = list.parameters.find((parameter) => parameter.name === 'scheduledFrom');
      expect(new RegExp(from?.schema.pattern ?? '^$').test('2026-12-01T10:30:00-05:00')).toBe(true);

      const get = document.paths['/v1/workspaces/{workspace_id}/posts/{post_id}']?.get as {
        responses: Record<string, { content: Record<string, { schema: unknown }> }>;
      };
      const output = resolved(document, get.responses['200']?.content['application/json']?.schema).properties
        .scheduledAt as { anyOf?: { pattern?: string }[]; pattern?: string };
      const outputPattern = output.pattern ?? output.anyOf?.find((branch) => branch.pattern)?.pattern;
      expect(new RegExp(outputPattern ?? '^$').test('2026-12-01T10:30:00Z')).toBe(true);
      expect(new RegExp(outputPattern ?? '^$').test('2026-12-01T10:30:00+01:00')).toBe(false);
    });
  });

  describe('an operation that takes no body refuses one, as others refuse an unknown field', () => {
    let reviewed: BootstrapResult;
    const approvalPath = (postId: string) => `/v1/workspaces/${reviewed.workspaceId}/posts/${postId}/approve`;

    beforeAll(async () => {
      reviewed = await host.admin.bootstrap({ name: 'Reviewed' });
      await host.deps.tenancy.setWorkspacePolicies(reviewed.tenantId, reviewed.workspaceId, {
        requireApproval: true,
      });
    });

    const pendingPost = async () => {
      const created = await postsClient(host, reviewed).create(tweet(reviewed));
      const post = (await created.json()) as { id: string; status: string };
      expect(post.status).toBe('pending_approval');
      return post.id;
    };
    const statusOf = async (postId: string) =>
      ((await (await postsClient(host, reviewed).get(postId)).json()) as { status: string }).status;

    it.each([
      ['no body', {}],
      ['an empty body', { headers: { 'Content-Type': 'application/json' }, body: '' }],
      ['{}', { headers: { 'Content-Type': 'application/json' }, body: '{}' }],
      ['{} with spaces and no Content-Type', { body: new TextEncoder().encode(' { } ') }],
    ])('approve takes %s', async (_name, init) => {
      const postId = await pendingPost();
      const response = await host.call(approvalPath(postId), {
        method: 'POST',
        apiKey: reviewed.apiKey,
        ...init,
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { status: string }).status).toBe('queued');
    });

    it.each([
      ['an unknown field', 'application/json', '{"foo":1}'],
      ['an array', 'application/json', '[1]'],
      ['a string', 'application/json', '"approve"'],
      ['null', 'application/json', 'null'],
      ['malformed JSON', 'application/json', '{"foo":'],
      ['text', 'text/plain', 'please approve'],
    ])('approve refuses %s with 400 naming body, and approves nothing', async (_name, type, body) => {
      const postId = await pendingPost();
      const response = await host.call(approvalPath(postId), {
        method: 'POST',
        apiKey: reviewed.apiKey,
        headers: { 'Content-Type': type },
        body,
      });
      const envelope = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(envelope.details).toEqual(NO_BODY_TAKEN);
      expect(await statusOf(postId)).toBe('pending_approval');
    });

    it('a DELETE (cancel) refuses a body the same way, and cancels nothing', async () => {
      const postId = await pendingPost();
      const refused = await host.call(`/v1/workspaces/${reviewed.workspaceId}/posts/${postId}`, {
        method: 'DELETE',
        apiKey: reviewed.apiKey,
        headers: { 'Content-Type': 'application/json' },
        body: '{"reason":"no"}',
      });
      expect((await expectEnvelope(refused, 400, 'INVALID_REQUEST')).details).toEqual(NO_BODY_TAKEN);
      expect(await statusOf(postId)).toBe('pending_approval');
    });

    it('a GET refuses a body too, with the other failures in the same 400', async () => {
      const posts = `/v1/workspaces/${reviewed.workspaceId}/posts`;
      const listed = await getWithBody(
        host.baseUrl,
        `${posts}?limit=0`,
        reviewed.apiKey,
        '{"status":"queued"}',
      );
      expect(listed.status).toBe(400);
      expect(Object.keys(listed.body.details as object).sort()).toEqual(['body', 'limit']);
      const read = await getWithBody(host.baseUrl, posts, reviewed.apiKey, '{}');
      expect(read.status).toBe(200);
    });

    it('a key is still checked first: 401 without one, whatever the body', async () => {
      const response = await host.call(approvalPath(newId('post')), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"foo":1}',
      });
      await expectEnvelope(response, 401, 'unauthorized');
    });

    it('the approvePost tool takes no body argument, and approves without one', async () => {
      const session = await connectMcp(host, reviewed.apiKey);
      try {
        const postId = await pendingPost();
        const ids = { workspaceId: reviewed.workspaceId, postId };
        const stray = await session.call('approvePost', { ...ids, body: { foo: 1 } });
        expect(stray.status).toBe(400);
        expect(stray.body).toMatchObject({
          error: 'INVALID_REQUEST',
          details: { body: [expect.any(String)] },
        });
        expect(await statusOf(postId)).toBe('pending_approval');
        const approved = await session.call('approvePost', ids);
        expect(approved.status).toBe(200);
        expect(approved.body?.status).toBe('queued');
      } finally {
        await session.close();
      }
    });
  });
});
