import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_SECRET_PATTERN } from '../../../shared/domain/webhooks/signature.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import type { WebhookRetryPlan } from '../../../shared/services/webhooks/dispatch.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../e2e/support/webhook-receiver.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { eventually } from '../../support/eventually.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

/**
 * The webhook pages over real HTTP on the local host, with delivery on and a receiver on loopback
 * (which only the local host accepts): the secret shown once, a test event and a redelivery seen
 * as attempts on the webhook's page, deletion, and what a viewer may do.
 */

/** Attempts 1 s apart, so a failed test event does not wait minutes for its retry. */
const QUICK_RETRIES: WebhookRetryPlan = (attemptNumber, _firstAttemptAtMs, nowMs) =>
  attemptNumber >= 3
    ? { kind: 'give_up' }
    : { kind: 'retry', attempt: attemptNumber + 1, atMs: nowMs + 1000, delaySeconds: 1 };

const WEBHOOK_ID = /whk_[0-9A-Z]{26}/;
const DELIVERY_ID = /whd_[0-9A-Z]{26}/g;
const SECRET_IN_PAGE = /<p class="secret" id="new-secret">(whsec_[^<]+)<\/p>/;

describe('the webhook pages of a workspace', () => {
  let host: TestHost;
  let receiver: WebhookReceiver;
  let tenant: BootstrapResult;
  let admin: DashboardClient;
  let base: string;
  /** A tenant-level key for every workspace of the tenant (the bootstrap key sees only its own). */
  let apiKey: string;
  let hookPaths = 0;

  /** Creates a webhook through the dashboard at a fresh receiver path; its id, secret and path. */
  const createThroughDashboard = async () => {
    hookPaths += 1;
    const path = `/hooks/${hookPaths}`;
    const answer = await admin.post(`${base}/webhooks`, {
      url: receiver.url(path),
      events: ['post.published', 'post.failed'],
    });
    expect(answer.status).toBe(200);
    const id = WEBHOOK_ID.exec(answer.html)?.[0] ?? '';
    const secret = SECRET_IN_PAGE.exec(answer.html)?.[1] ?? '';
    return { id, secret, path, html: answer.html };
  };

  /** The webhook page once it shows `text` (the dispatcher works in the background). */
  const pageShowing = (webhookId: string, text: string) =>
    eventually(
      async () => {
        const answer = await admin.get(`${base}/webhooks/${webhookId}`);
        return answer.html.includes(text) ? answer.html : undefined;
      },
      { timeoutMs: 15_000, what: `the page of ${webhookId} to show "${text}"` },
    );

  const apiDeliveries = async (workspaceId: string, webhookId: string) => {
    const response = await host.call(`/v1/workspaces/${workspaceId}/webhooks/${webhookId}/deliveries`, {
      apiKey,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { id: string; attempts: number; status: string }[] }).data;
  };

  const apiCreate = async (workspaceId: string, url = 'https://receiver.example.com/hooks') => {
    const response = await host.call(`/v1/workspaces/${workspaceId}/webhooks`, {
      method: 'POST',
      apiKey,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url, events: ['post.published'] }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; secret: string };
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    host = await startTestHost({ delivery: { webhookRetryPlan: QUICK_RETRIES } });
    tenant = await host.admin.bootstrap({ name: 'Dashboard webhooks' });
    base = `/workspaces/${tenant.workspaceId}`;
    const agent = await host.admin.createAgent(
      { role: 'super_admin' },
      { tenantId: tenant.tenantId, name: 'Every workspace', scope: { kind: 'all' } },
    );
    apiKey = (await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId })).plaintext;
    ({ client: admin } = await signedInAs(host, {
      role: 'workspace_admin',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    }));
  });
  afterAll(async () => {
    await host?.stop();
    await receiver?.stop();
  });

  describe('creating a webhook', () => {
    it('shows the signing secret in the create answer, with a Copy button, and never again', async () => {
      // Act
      const created = await createThroughDashboard();

      // Assess
      expect(created.id).toMatch(WEBHOOK_ID);
      expect(created.secret).toMatch(WEBHOOK_SECRET_PATTERN);
      expect(created.html).toContain('<h1>Webhook created</h1>');
      expect(created.html).toContain('data-copy="new-secret"');
      expect(created.html).toContain('Copy it now: it will not be shown again.');
      const webhookPage = await admin.get(`${base}/webhooks/${created.id}`);
      expect(webhookPage.status).toBe(200);
      expect(webhookPage.html).toContain(`<h1>Webhook ${created.id}</h1>`);
      expect(webhookPage.html).toContain(receiver.url(created.path));
      expect(webhookPage.html).not.toContain(created.secret);
      expect(webhookPage.html).not.toContain('whsec_');
      const list = await admin.get(`${base}/webhooks`);
      expect(list.status).toBe(200);
      expect(list.html).toContain(`href="/dashboard${base}/webhooks/${created.id}"`);
      expect(list.html).not.toContain('whsec_');
    });

    it('shows the API’s refusal of a plain-HTTP public receiver on the URL field, keeping what was typed', async () => {
      // Act
      const answer = await admin.post(`${base}/webhooks`, {
        url: 'http://receiver.example.com/hooks',
        events: ['post.published'],
      });

      // Assess
      expect(answer.status).toBe(422);
      expect(answer.html).toMatch(/id="field-url-error">A webhook URL must use HTTPS[^<]*, not http/);
      expect(answer.html).toContain('value="http://receiver.example.com/hooks"');
      expect(answer.html).toMatch(/value="post.published" checked/);
      expect(answer.html).not.toContain('whsec_');
    });

    it('asks for at least one event', async () => {
      // Act
      const answer = await admin.post(`${base}/webhooks`, { url: receiver.url('/hooks/none') });

      // Assess
      expect(answer.status).toBe(422);
      expect(answer.html).toContain('id="field-events-error"');
    });

    it('shows the API’s message when the workspace has as many webhooks as it may', async () => {
      // Arrange
      const full = await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Full' });
      for (let index = 0; index < 25; index += 1) await apiCreate(full.workspaceId);
      const { client: fullAdmin } = await signedInAs(host, {
        role: 'workspace_admin',
        tenantId: tenant.tenantId,
        workspaceIds: [full.workspaceId],
      });

      // Act
      const answer = await fullAdmin.post(`/workspaces/${full.workspaceId}/webhooks`, {
        url: 'https://receiver.example.com/more',
        events: ['post.failed'],
      });

      // Assess
      expect(answer.status).toBe(409);
      expect(answer.html).toContain('The workspace already has 25 webhooks, the most it may have.');
      expect(answer.html).toContain('value="https://receiver.example.com/more"');
    });
  });

  describe('deliveries', () => {
    it('shows a test event’s delivery with its attempt, and a redelivery as a second attempt', async () => {
      // Arrange
      const created = await createThroughDashboard();

      // Act
      const tested = await admin.post(`${base}/webhooks/${created.id}/test`);

      // Assess
      expect(tested.status).toBe(303);
      expect(tested.location).toBe(`/dashboard${base}/webhooks/${created.id}?done=tested`);
      const once = await pageShowing(created.id, '1 attempt</p>');
      expect(once).toContain('webhook.test');
      expect(once).toMatch(/<time datetime="[^"]+">[^<]+ UTC<\/time>: HTTP 200, \d+ ms/);
      expect(receiver.at(created.path)).toHaveLength(1);
      const [deliveryId] = once.match(DELIVERY_ID) ?? [];
      expect(deliveryId).toBeDefined();

      // Act
      const redelivered = await admin.post(
        `${base}/webhooks/${created.id}/deliveries/${deliveryId}/redeliver`,
      );

      // Assess
      expect(redelivered.status).toBe(303);
      const notice = await admin.get(redelivered.location ?? '');
      expect(notice.html).toContain('Redelivery queued.');
      const twice = await pageShowing(created.id, '2 attempts</p>');
      expect(twice.match(/: HTTP 200, \d+ ms/g)).toHaveLength(2);
      expect(receiver.at(created.path)).toHaveLength(2);
    });

    it('shows a failed attempt’s HTTP status and the service’s reason, then its retry', async () => {
      // Arrange
      const created = await createThroughDashboard();
      receiver.answer(created.path, { status: 503 });

      // Act
      await admin.post(`${base}/webhooks/${created.id}/test`);

      // Assess
      const html = await pageShowing(created.id, 'HTTP 503');
      expect(html).toMatch(/: HTTP 503, \d+ ms\. The receiver answered HTTP 503\./);
      await pageShowing(created.id, '2 attempts</p>');
    });

    it('pages the deliveries with a Next page link', async () => {
      // Arrange
      const created = await createThroughDashboard();
      for (let index = 0; index < 26; index += 1) {
        const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/webhooks/${created.id}/test`, {
          method: 'POST',
          apiKey,
        });
        expect(response.status).toBe(202);
      }

      // Act
      const first = await admin.get(`${base}/webhooks/${created.id}`);

      // Assess
      const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(first.html)?.[1];
      expect(next).toBeDefined();
      const firstIds = new Set(first.html.match(DELIVERY_ID));
      const second = await admin.get((next ?? '').replaceAll('&amp;', '&'));
      expect(second.status).toBe(200);
      expect(second.html).toContain('First page');
      const secondIds = second.html.match(DELIVERY_ID) ?? [];
      expect(secondIds.length).toBeGreaterThan(0);
      expect(secondIds.some((id) => firstIds.has(id))).toBe(false);
      expect(firstIds.size + new Set(secondIds).size).toBe(26);
    });
  });

  describe('deleting a webhook', () => {
    it('removes it and goes back to the list with a notice', async () => {
      // Arrange
      const created = await createThroughDashboard();

      // Act
      const answer = await admin.post(`${base}/webhooks/${created.id}/delete`);

      // Assess
      expect(answer.status).toBe(303);
      expect(answer.location).toBe(`/dashboard${base}/webhooks?done=deleted`);
      const list = await admin.get(answer.location ?? '');
      expect(list.html).toContain('Webhook deleted.');
      expect(list.html).not.toContain(created.id);
      expect((await admin.get(`${base}/webhooks/${created.id}`)).status).toBe(404);
    });
  });

  describe('who may do what', () => {
    it('lets a viewer read the list and a webhook, without the secret or any form, and refuses every POST', async () => {
      // Arrange
      const created = await apiCreate(tenant.workspaceId, receiver.url('/hooks/viewer'));
      await host.call(`/v1/workspaces/${tenant.workspaceId}/webhooks/${created.id}/test`, {
        method: 'POST',
        apiKey,
      });
      const [delivery] = await apiDeliveries(tenant.workspaceId, created.id);
      const { client: viewer } = await signedInAs(host, {
        role: 'viewer',
        tenantId: tenant.tenantId,
        workspaceIds: [tenant.workspaceId],
      });

      // Act
      const list = await viewer.get(`${base}/webhooks`);
      const detail = await viewer.get(`${base}/webhooks/${created.id}`);
      const posts = [
        await viewer.post(`${base}/webhooks`, {
          url: 'https://receiver.example.com/v',
          events: ['post.failed'],
        }),
        await viewer.post(`${base}/webhooks/${created.id}/test`),
        await viewer.post(`${base}/webhooks/${created.id}/deliveries/${delivery?.id}/redeliver`),
        await viewer.post(`${base}/webhooks/${created.id}/delete`),
      ];

      // Assess
      expect(list.status).toBe(200);
      expect(list.html).toContain(created.id);
      expect(list.html).not.toContain('Create webhook');
      expect(list.html).not.toContain('whsec_');
      expect(detail.status).toBe(200);
      expect(detail.html).not.toContain(created.secret);
      expect(detail.html).not.toContain('Send test event');
      expect(detail.html).not.toContain('Delete webhook');
      expect(detail.html).not.toContain('Redeliver');
      expect(posts.map((answer) => answer.status)).toEqual([403, 403, 403, 403]);
      expect((await admin.get(`${base}/webhooks/${created.id}`)).status).toBe(200);
      const deliveries = await apiDeliveries(tenant.workspaceId, created.id);
      expect(deliveries).toHaveLength(1);
    });

    it('answers 404 to an admin of another workspace, on its pages and on forged forms', async () => {
      // Arrange
      const other = await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Other' });
      const hook = await apiCreate(other.workspaceId, receiver.url('/hooks/other'));
      await host.call(`/v1/workspaces/${other.workspaceId}/webhooks/${hook.id}/test`, {
        method: 'POST',
        apiKey,
      });
      const [delivery] = await apiDeliveries(other.workspaceId, hook.id);
      const attemptsBefore = await eventually(async () => {
        const [found] = await apiDeliveries(other.workspaceId, hook.id);
        return found?.status === 'succeeded' ? found.attempts : undefined;
      });
      const redeliver = `/webhooks/${hook.id}/deliveries/${delivery?.id}/redeliver`;

      // Act
      const answers = [
        await admin.get(`/workspaces/${other.workspaceId}/webhooks`),
        await admin.get(`/workspaces/${other.workspaceId}/webhooks/${hook.id}`),
        await admin.post(`/workspaces/${other.workspaceId}${redeliver}`),
        await admin.get(`${base}/webhooks/${hook.id}`),
        await admin.post(`${base}${redeliver}`),
        await admin.post(`${base}/webhooks/${hook.id}/delete`),
      ];

      // Assess
      expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404]);
      for (const answer of answers) expect(answer.html).not.toContain(hook.id);
      const [after] = await apiDeliveries(other.workspaceId, hook.id);
      // A redelivery would have made it pending again at once, before its attempt.
      expect(after).toMatchObject({ status: 'succeeded', attempts: attemptsBefore });
    });
  });
});
