import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { WEBHOOK_SECRET_PATTERN } from '../../shared/domain/webhooks/signature.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

interface CreatedWebhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  createdAt: string;
}

const json = { 'Content-Type': 'application/json' };
const RECEIVER = 'https://receiver.example.com/hooks';

/** Calls on one tenant's webhooks, through the host's HTTP server. */
function webhooksOf(host: TestHost, tenant: BootstrapResult, workspaceId = tenant.workspaceId) {
  const base = `/v1/workspaces/${workspaceId}/webhooks`;
  const apiKey = tenant.apiKey;
  return {
    create: (body: unknown) =>
      host.call(base, { method: 'POST', apiKey, headers: json, body: JSON.stringify(body) }),
    async created(body: Record<string, unknown> = {}) {
      const response = await this.create({ url: RECEIVER, events: ['post.published'], ...body });
      expect(response.status).toBe(201);
      return (await response.json()) as CreatedWebhook;
    },
    list: (query = '') => host.call(`${base}${query}`, { apiKey }),
    get: (id: string) => host.call(`${base}/${id}`, { apiKey }),
    remove: (id: string) => host.call(`${base}/${id}`, { method: 'DELETE', apiKey }),
  };
}

describe('webhook registration and management over HTTP', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let hooks: ReturnType<typeof webhooksOf>;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Hooks' });
    hooks = webhooksOf(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  describe('POST …/webhooks', () => {
    it('answers 201 with the webhook and its secret', async () => {
      // Act
      const response = await hooks.create({
        url: RECEIVER,
        events: ['post.published', 'post.failed'],
        description: 'CRM sync',
      });

      // Assess
      expect(response.status).toBe(201);
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      const body = (await response.json()) as CreatedWebhook;
      expect(body).toEqual({
        id: expect.stringMatching(/^whk_[0-9A-Z]{26}$/),
        url: RECEIVER,
        events: ['post.published', 'post.failed'],
        description: 'CRM sync',
        secret: expect.stringMatching(WEBHOOK_SECRET_PATTERN),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    });

    it('answers description null when none is given', async () => {
      // Act
      const created = await hooks.created();

      // Assess
      expect(created.description).toBeNull();
    });

    it.each([
      ['plain HTTP', 'http://receiver.example.com/hooks'],
      ['a private address', 'https://10.1.2.3/hooks'],
      ['a private address in another spelling', 'https://0x0a010203/hooks'],
      ['a link-local address (cloud metadata)', 'https://169.254.169.254/latest/meta-data'],
      ['HTTPS to loopback', 'https://127.0.0.1:8443/hooks'],
      ['IPv6 loopback over HTTP', 'http://[::1]:4000/hooks'],
      ['a *.localhost name', 'http://app.localhost:4000/hooks'],
      ['a privileged port', 'https://receiver.example.com:25/hooks'],
      ['credentials in the URL', 'https://user:pass@receiver.example.com/hooks'],
      ['no URL at all', 'receiver.example.com'],
    ])('refuses %s with 400 INVALID_REQUEST on url', async (_case, url) => {
      // Act
      const response = await hooks.create({ url, events: ['post.published'] });

      // Assess
      const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(body.details).toEqual({ url: [expect.any(String)] });
    });

    it.each(['http://127.0.0.1:4000/hooks', 'http://localhost:4000/hooks'])(
      'accepts the loopback receiver %s on the local host',
      async (url) => {
        // Act
        const response = await hooks.create({ url, events: ['post.published'] });

        // Assess
        expect(response.status).toBe(201);
        expect(((await response.json()) as CreatedWebhook).url).toBe(url);
      },
    );

    it.each([
      ['an unknown event name', { events: ['post.deleted'] }, 'events[0]'],
      ['the test event, which nobody subscribes to', { events: ['webhook.test'] }, 'events[0]'],
      ['an event listed twice', { events: ['post.failed', 'post.queued', 'post.failed'] }, 'events[2]'],
      ['no events', { events: [] }, 'events'],
      ['no events field', { events: undefined }, 'events'],
      ['a description of 501 characters', { description: 'x'.repeat(501) }, 'description'],
      ['an empty description', { description: '  ' }, 'description'],
      ['a field the API does not know', { secret: 'whsec_mine' }, ''],
    ])('refuses %s with 400 INVALID_REQUEST naming the field', async (_case, change, field) => {
      // Act
      const response = await hooks.create({ url: RECEIVER, events: ['post.published'], ...change });

      // Assess
      const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      const details = body.details as Record<string, string[]>;
      if (field) expect(Object.keys(details)).toContain(field);
      else expect(Object.keys(details).length).toBeGreaterThan(0);
    });

    it('refuses the 26th webhook of a workspace with 409 conflict; a delete makes room again', async () => {
      // Prepare
      const full = await host.admin.bootstrap({ name: 'Full' });
      const fullHooks = webhooksOf(host, full);
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) ids.push((await fullHooks.created()).id);

      // Act
      const refused = await fullHooks.create({ url: RECEIVER, events: ['post.failed'] });
      await fullHooks.remove(ids[0] ?? '');
      const afterDelete = await fullHooks.create({ url: RECEIVER, events: ['post.failed'] });

      // Assess
      const body = await expectEnvelope(refused, 409, 'conflict');
      expect(body.message).toContain('25');
      expect(afterDelete.status).toBe(201);
      const listed = (await (await fullHooks.list('?limit=100')).json()) as { data: unknown[] };
      expect(listed.data).toHaveLength(25);
    });
  });

  describe('the loopback allowance', () => {
    it('exists on the local host only: a host that does not allow it refuses 127.0.0.1 and localhost', async () => {
      // Prepare
      const strict = await startTestHost({ allowLoopbackReceivers: false });
      try {
        const owner = await strict.admin.bootstrap({ name: 'Strict' });
        const strictHooks = webhooksOf(strict, owner);

        // Act
        const responses = await Promise.all(
          ['http://127.0.0.1:4000/hooks', 'http://localhost:4000/hooks'].map((url) =>
            strictHooks.create({ url, events: ['post.published'] }),
          ),
        );

        // Assess
        for (const response of responses) {
          const body = await expectEnvelope(response, 400, 'INVALID_REQUEST');
          expect(body.details).toEqual({ url: [expect.stringContaining('HTTPS')] });
        }
      } finally {
        await strict.stop();
      }
    });
  });

  describe('the secret', () => {
    it('is shown once: never in GET, the list, the delivery history, the logs or the stored item', async () => {
      // Prepare
      const created = await hooks.created({ events: ['post.queued'] });
      const test = await host.call(`/v1/workspaces/${tenant.workspaceId}/webhooks/${created.id}/test`, {
        method: 'POST',
        apiKey: tenant.apiKey,
      });
      expect(test.status).toBe(202);

      // Act
      const texts = await Promise.all(
        [
          hooks.get(created.id),
          hooks.list('?limit=100'),
          host.call(`/v1/workspaces/${tenant.workspaceId}/webhooks/${created.id}/deliveries`, {
            apiKey: tenant.apiKey,
          }),
          host.call(`/v1/webhooks/${created.id}/deliveries`, { apiKey: tenant.apiKey }),
        ].map(async (response) => {
          const answered = await response;
          expect(answered.status).toBe(200);
          return answered.text();
        }),
      );
      const stored = await host.deps.webhooks.getWebhookForDelivery(
        tenant.tenantId,
        tenant.workspaceId,
        created.id,
      );

      // Assess
      const secretBody = created.secret.slice('whsec_'.length);
      for (const text of texts) {
        expect(text).not.toContain(secretBody);
        expect(text).not.toContain('secret');
      }
      expect(JSON.stringify(host.logs)).not.toContain(secretBody);
      expect(stored?.secretCiphertext).toBeTruthy();
      expect(JSON.stringify(stored)).not.toContain(secretBody);
      await expect(
        host.deps.secrets.decrypt(stored?.secretCiphertext ?? '', {
          tenantId: tenant.tenantId,
          workspaceId: tenant.workspaceId,
          purpose: 'webhook-signing-secret',
          recordId: created.id,
        }),
      ).resolves.toBe(created.secret);
    });
  });

  describe('GET …/webhooks and …/webhooks/{webhook_id}', () => {
    it('reads a webhook with its delivery outcome, which starts empty and follows the deliveries', async () => {
      // Prepare
      const created = await hooks.created({ events: ['post.failed', 'account.disconnected'] });
      const before = (await (await hooks.get(created.id)).json()) as Record<string, unknown>;
      await host.deps.webhooks.recordDeliveryOutcome(tenant.tenantId, tenant.workspaceId, created.id, {
        at: '2030-01-01T00:00:00.000Z',
        status: 'failed',
      });
      await host.deps.webhooks.recordDeliveryOutcome(tenant.tenantId, tenant.workspaceId, created.id, {
        at: '2030-01-01T00:01:00.000Z',
        status: 'failed',
      });

      // Act
      const response = await hooks.get(created.id);

      // Assess
      expect(before).toEqual({
        id: created.id,
        url: RECEIVER,
        events: ['post.failed', 'account.disconnected'],
        description: null,
        createdAt: created.createdAt,
        lastDeliveryAt: null,
        lastDeliveryStatus: null,
        consecutiveFailures: 0,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        ...before,
        lastDeliveryAt: '2030-01-01T00:01:00.000Z',
        lastDeliveryStatus: 'failed',
        consecutiveFailures: 2,
      });
    });

    it('lists the workspace’s webhooks oldest first, page by page', async () => {
      // Prepare
      const listed = await host.admin.bootstrap({ name: 'Listed' });
      const listedHooks = webhooksOf(host, listed);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await listedHooks.created()).id);

      // Act
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response = await listedHooks.list(
          `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(response.status).toBe(200);
        const page = (await response.json()) as { data: { id: string }[]; nextCursor: string | null };
        seen.push(...page.data.map((webhook) => webhook.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);

      // Assess
      // Ids begin with their creation time: id order is creation order (to the millisecond).
      expect(seen).toEqual([...ids].sort());
      expect(pages).toBeGreaterThanOrEqual(3);
    });
  });

  describe('DELETE', () => {
    it.each([
      [
        '…/webhooks/{webhook_id}',
        (t: BootstrapResult, id: string) => `/v1/workspaces/${t.workspaceId}/webhooks/${id}`,
      ],
      ['/v1/webhooks/{webhook_id}', (_t: BootstrapResult, id: string) => `/v1/webhooks/${id}`],
    ])('%s answers 204 and the webhook is gone at once', async (_form, pathOf) => {
      // Prepare
      const created = await hooks.created();

      // Act
      const response = await host.call(pathOf(tenant, created.id), {
        method: 'DELETE',
        apiKey: tenant.apiKey,
      });
      const again = await host.call(pathOf(tenant, created.id), { method: 'DELETE', apiKey: tenant.apiKey });

      // Assess
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      await expectEnvelope(await hooks.get(created.id), 404, 'not_found');
      await expectEnvelope(again, 404, 'not_found');
      const listed = (await (await hooks.list('?limit=100')).json()) as { data: { id: string }[] };
      expect(listed.data.map((webhook) => webhook.id)).not.toContain(created.id);
      expect(
        await host.deps.webhooks.listFanOutWebhooks(tenant.tenantId, tenant.workspaceId),
      ).not.toContainEqual(expect.objectContaining({ webhookId: created.id }));
    });
  });

  describe('isolation', () => {
    /** Every webhook route, for a webhook id as seen from a workspace. */
    const routes = (workspaceId: string, webhookId: string, deliveryId: string, query = '') => {
      const long = `/v1/workspaces/${workspaceId}/webhooks/${webhookId}`;
      return [
        { method: 'GET', path: long },
        { method: 'GET', path: `${long}/deliveries` },
        { method: 'POST', path: `${long}/deliveries/${deliveryId}/retry` },
        { method: 'POST', path: `${long}/test` },
        { method: 'GET', path: `/v1/webhooks/${webhookId}/deliveries${query}` },
        { method: 'DELETE', path: `/v1/webhooks/${webhookId}${query}` },
        { method: 'DELETE', path: long },
      ];
    };

    const seedDelivery = async (owner: BootstrapResult, webhookId: string) => {
      const { delivery } = await host.deps.webhooks.createDelivery({
        tenantId: owner.tenantId,
        workspaceId: owner.workspaceId,
        webhookId,
        event: {
          id: newId('event'),
          type: 'post.published',
          createdAt: '2030-01-01T00:00:00.000Z',
          workspaceId: owner.workspaceId,
          data: { postId: 'pst_1' },
        },
        createdAt: '2030-01-01T00:00:00.000Z',
      });
      return delivery.deliveryId;
    };

    it("another tenant gets 404 on every webhook route for this tenant's webhook, and changes nothing", async () => {
      // Prepare
      const created = await hooks.created();
      const deliveryId = await seedDelivery(tenant, created.id);
      const stranger = await host.admin.bootstrap({ name: 'Stranger' });
      const before = await host.deps.webhooks.getDelivery({ ...tenant, webhookId: created.id, deliveryId });

      // Act
      const responses = [];
      for (const workspaceId of [stranger.workspaceId, tenant.workspaceId]) {
        for (const route of routes(workspaceId, created.id, deliveryId)) {
          responses.push(await host.call(route.path, { method: route.method, apiKey: stranger.apiKey }));
        }
      }

      // Assess
      for (const response of responses) await expectEnvelope(response, 404, 'not_found');
      expect((await hooks.get(created.id)).status).toBe(200);
      expect(await host.deps.webhooks.getDelivery({ ...tenant, webhookId: created.id, deliveryId })).toEqual(
        before,
      );
    });

    it("another workspace of the same tenant does not see this workspace's webhooks", async () => {
      // Prepare
      const owner = await host.admin.bootstrap({ name: 'Two workspaces' });
      const ownerHooks = webhooksOf(host, owner);
      const second = await host.admin.createWorkspace({ tenantId: owner.tenantId, name: 'Second' });
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        {
          tenantId: owner.tenantId,
          name: 'Both workspaces',
          scope: { kind: 'selected', workspaceIds: [owner.workspaceId, second.workspaceId] },
        },
      );
      const apiKey = (await host.admin.createApiKey({ tenantId: owner.tenantId, agentId: agent.agentId }))
        .plaintext;
      const created = await ownerHooks.created();
      const deliveryId = await seedDelivery(owner, created.id);

      // Act
      const responses = [];
      for (const route of routes(
        second.workspaceId,
        created.id,
        deliveryId,
        `?workspaceId=${second.workspaceId}`,
      )) {
        responses.push(await host.call(route.path, { method: route.method, apiKey }));
      }
      const list = await host.call(`/v1/workspaces/${second.workspaceId}/webhooks`, { apiKey });
      const shortWithoutWorkspace = await host.call(`/v1/webhooks/${created.id}/deliveries`, { apiKey });

      // Assess
      for (const response of responses) await expectEnvelope(response, 404, 'not_found');
      expect(((await list.json()) as { data: unknown[] }).data).toEqual([]);
      await expectEnvelope(shortWithoutWorkspace, 403, 'workspace_required');
      expect((await ownerHooks.get(created.id)).status).toBe(200);
    });

    it('a key without webhooks:manage may not register or read webhooks (403 permission_denied)', async () => {
      // Prepare
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        {
          tenantId: tenant.tenantId,
          name: 'Reader',
          fromWorkspaceId: tenant.workspaceId,
          permissions: ['posts:read', 'posts:write'],
        },
      );
      const apiKey = (await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId }))
        .plaintext;

      // Act
      const create = await host.call(`/v1/workspaces/${tenant.workspaceId}/webhooks`, {
        method: 'POST',
        apiKey,
        headers: json,
        body: JSON.stringify({ url: RECEIVER, events: ['post.published'] }),
      });
      const list = await host.call(`/v1/workspaces/${tenant.workspaceId}/webhooks`, { apiKey });

      // Assess
      for (const response of [create, list]) {
        const body = await expectEnvelope(response, 403, 'permission_denied');
        expect(body.required).toBe('webhooks:manage');
      }
    });
  });
});
