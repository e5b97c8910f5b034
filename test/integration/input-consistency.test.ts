import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { connectMcp, type McpSession } from '../e2e/mcp/support.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

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
});
