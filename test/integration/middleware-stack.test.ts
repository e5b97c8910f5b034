import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../shared/operations/registry.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { alwaysFails, echoBody, whichWorkspace } from '../support/test-operations.js';

describe('the shared middleware stack over HTTP', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  const json = { 'Content-Type': 'application/json' };

  beforeAll(async () => {
    host = await startTestHost({ operations: [...operations, echoBody, whichWorkspace, alwaysFails] });
    tenant = await host.admin.bootstrap({ name: 'Stack' });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('parses, validates and answers with the operation status, dropping fields the schema does not name', async () => {
    const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/echo`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: json,
      body: JSON.stringify({ text: 'hello', count: 2 }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ workspaceId: tenant.workspaceId, text: 'hello', count: 2 });
  });

  it('reports every schema failure at once, by field name', async () => {
    const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/echo`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: json,
      body: JSON.stringify({ text: 'far too long a text', count: 1.5, extra: true }),
    });
    const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
    const details = body.details as Record<string, string[]>;
    expect(Object.keys(details).sort()).toEqual(['body', 'count', 'text']);
    for (const messages of Object.values(details))
      expect(messages.every((m) => typeof m === 'string')).toBe(true);
  });

  it('answers 400 to a missing body where one is required', async () => {
    const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/echo`, {
      method: 'POST',
      apiKey: tenant.apiKey,
    });
    await expectEnvelope(response, 400, 'INVALID_REQUEST');
  });

  it('answers 413 payload_too_large to a body over 1 MiB', async () => {
    const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/echo`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: json,
      body: JSON.stringify({ text: 'x'.repeat(1024 * 1024) }),
    });
    await expectEnvelope(response, 413, 'payload_too_large');
  });

  it('answers 404 not_found to an unknown route and 405 with Allow to a wrong method', async () => {
    await expectEnvelope(await host.call('/v1/nothing-here', { apiKey: tenant.apiKey }), 404, 'not_found');
    const wrongMethod = await host.call('/v1/workspaces', { method: 'DELETE', apiKey: tenant.apiKey });
    await expectEnvelope(wrongMethod, 405, 'method_not_allowed');
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });

  it('answers 500 without a stack, message or internals when a handler fails unexpectedly', async () => {
    const response = await host.call('/v1/always-fails');
    const body = await expectEnvelope(response, 500, 'internal_error');
    expect(JSON.stringify(body)).not.toMatch(/hunter2|secret\.ts|Error:/);
  });

  it('keeps a sane incoming X-Request-Id and replaces one that is not', async () => {
    const kept = await host.call('/v1/workspaces', {
      apiKey: tenant.apiKey,
      headers: { 'X-Request-Id': 'trace-abc-123' },
    });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc-123');
    const replaced = await host.call('/v1/workspaces', {
      apiKey: tenant.apiKey,
      headers: { 'X-Request-Id': 'has spaces <script>' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_[0-9A-Z]{26}$/);
  });

  describe('workspace-less paths', () => {
    it('use the only workspace of a key that has one', async () => {
      const response = await host.call('/v1/which-workspace', { apiKey: tenant.apiKey });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ workspaceId: tenant.workspaceId });
    });

    it('answer 403 workspace_required with the choices to a key for several workspaces, and accept workspaceId', async () => {
      const second = await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Second' });
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        {
          tenantId: tenant.tenantId,
          name: 'Two workspaces',
          scope: { kind: 'selected', workspaceIds: [tenant.workspaceId, second.workspaceId] },
        },
      );
      const { plaintext } = await host.admin.createApiKey({
        tenantId: tenant.tenantId,
        agentId: agent.agentId,
      });

      const ambiguous = await host.call('/v1/which-workspace', { apiKey: plaintext });
      const body = await expectEnvelope(ambiguous, 403, 'workspace_required');
      expect((body.available_workspaces as string[]).sort()).toEqual(
        [tenant.workspaceId, second.workspaceId].sort(),
      );

      const named = await host.call(`/v1/which-workspace?workspaceId=${second.workspaceId}`, {
        apiKey: plaintext,
      });
      expect(await named.json()).toEqual({ workspaceId: second.workspaceId });

      const foreign = await host.call(`/v1/which-workspace?workspaceId=wks_01ARZ3NDEKTSV4RRFFQ69G5FAV`, {
        apiKey: plaintext,
      });
      await expectEnvelope(foreign, 404, 'not_found');
    });
  });
});
