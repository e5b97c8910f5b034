import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../shared/domain/events.js';
import { newId } from '../../shared/domain/ids.js';
import { mediaObjectKey } from '../../shared/domain/media.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import type { WebhookRetryPlan } from '../../shared/services/webhooks/dispatch.js';
import { eventually } from '../support/eventually.js';
import { inOneHour, postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

/**
 * Webhook delivery end to end on the local host: posts change over HTTP, the sandbox network
 * publishes, the outbox emits events, the fan-out and the dispatcher deliver them to receivers on
 * loopback (allowed on the local host only). Retries come 1 s apart here (a short retry plan), so
 * they are seen without waiting a day; the real schedule is the unit tests' and the domain's.
 */

/** Four attempts, 1 s apart. */
const QUICK_RETRIES: WebhookRetryPlan = (attemptNumber, _firstAttemptAtMs, nowMs) =>
  attemptNumber >= 4
    ? { kind: 'give_up' }
    : { kind: 'retry', attempt: attemptNumber + 1, atMs: nowMs + 1000, delaySeconds: 1 };

interface CreatedWebhook {
  id: string;
  secret: string;
  url: string;
}

interface DeliveryRecord {
  id: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  nextAttemptAt: string | null;
  attemptHistory: { at: string; responseStatus: number | null; durationMs: number; error: string | null }[];
}

interface Envelope {
  id: string;
  type: string;
  createdAt: string;
  workspaceId: string;
  data: Record<string, unknown>;
}

const signatureOf = (request: ReceivedWebhook) => String(request.headers['x-webhook-signature']);
const bodyOf = (request: ReceivedWebhook) => JSON.parse(request.rawBody.toString('utf8')) as Envelope;

describe('webhook delivery on the local host, to receivers on loopback', () => {
  let host: TestHost;
  let receiver: WebhookReceiver;
  let tenant: BootstrapResult;
  let paths = 0;

  /** Registers a webhook through the API, at a fresh path of the receiver. */
  const register = async (
    owner: { workspaceId: string; apiKey: string },
    events: readonly string[],
  ): Promise<CreatedWebhook & { path: string }> => {
    paths += 1;
    const path = `/hooks/${paths}`;
    const response = await host.call(`/v1/workspaces/${owner.workspaceId}/webhooks`, {
      method: 'POST',
      apiKey: owner.apiKey,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: receiver.url(path), events }),
    });
    expect(response.status).toBe(201);
    return { ...((await response.json()) as CreatedWebhook), path };
  };
  const deliveries = async (owner: { workspaceId: string; apiKey: string }, webhookId: string) => {
    const response = await host.call(`/v1/workspaces/${owner.workspaceId}/webhooks/${webhookId}/deliveries`, {
      apiKey: owner.apiKey,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: DeliveryRecord[] }).data;
  };
  const webhookOf = async (owner: { workspaceId: string; apiKey: string }, webhookId: string) => {
    const response = await host.call(`/v1/workspaces/${owner.workspaceId}/webhooks/${webhookId}`, {
      apiKey: owner.apiKey,
    });
    return (await response.json()) as { consecutiveFailures: number; lastDeliveryStatus: string | null };
  };
  const settledDelivery = (
    owner: { workspaceId: string; apiKey: string },
    webhookId: string,
    timeoutMs = 15_000,
  ) =>
    eventually(
      async () => {
        const [delivery] = await deliveries(owner, webhookId);
        return delivery && delivery.status !== 'pending' ? delivery : undefined;
      },
      { timeoutMs, what: `the delivery of ${webhookId} to finish` },
    );
  const createPost = async (owner: BootstrapResult, body: unknown) => {
    const response = await postsClient(host, owner).create(body);
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  /** A video stored in the workspace, as an upload leaves it: its media id. */
  const storedVideo = async (owner: BootstrapResult): Promise<string> => {
    const mediaId = newId('media');
    const objectKey = mediaObjectKey(owner.tenantId, owner.workspaceId, mediaId);
    const bytes = Buffer.alloc(64 * 1024, 7);
    await host.deps.storage.put(objectKey, bytes, 'video/mp4');
    await host.deps.media.put({
      mediaId,
      tenantId: owner.tenantId,
      workspaceId: owner.workspaceId,
      filename: 'draft.mp4',
      mimeType: 'video/mp4',
      sizeBytes: bytes.length,
      status: 'uploaded',
      objectKey,
      createdAt: new Date().toISOString(),
      uploadedAt: new Date().toISOString(),
    });
    return mediaId;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    host = await startTestHost({
      delivery: { sandboxLatencyMs: { min: 5, max: 20 }, webhookRetryPlan: QUICK_RETRIES },
    });
    tenant = await host.admin.bootstrap({ name: 'Webhooks' });
  });
  afterAll(async () => {
    await host.stop();
    await receiver.stop();
  });

  it('each event type arrives once per subscription, signed so that Stripe’s verifier accepts it, X-Webhook-Id the event id; nothing crosses workspaces or tenants', async () => {
    // Prepare: a workspace that asks for approval, its webhooks, and webhooks elsewhere.
    const owner = await host.admin.bootstrap({ name: 'Every event' });
    await host.deps.tenancy.setWorkspacePolicies(owner.tenantId, owner.workspaceId, {
      requireApproval: true,
    });
    const everything = await register(owner, EVENT_TYPES);
    const publishedOnly = await register(owner, ['post.published']);
    const otherTenant = await register(tenant, EVENT_TYPES);
    const second = await host.admin.createWorkspace({ tenantId: owner.tenantId, name: 'Second' });
    const agent = await host.admin.createAgent(
      { role: 'owner' },
      { tenantId: owner.tenantId, name: 'Second agent', fromWorkspaceId: second.workspaceId },
    );
    const secondKey = (await host.admin.createApiKey({ tenantId: owner.tenantId, agentId: agent.agentId }))
      .plaintext;
    const otherWorkspace = await register(
      { workspaceId: second.workspaceId, apiKey: secondKey },
      EVENT_TYPES,
    );
    const client = postsClient(host, owner);

    // Act: every one of the events, through the API and the sandbox network.
    // approval.requested; once approved: approval.decided, post.queued, post.published, post.first_comment_published
    const approved = await createPost(
      owner,
      tweet(owner, { content: 'Approve me', firstComment: { text: 'More below' } }),
    );
    expect((await client.approve(approved)).status).toBe(200);
    await host.deps.tenancy.setWorkspacePolicies(owner.tenantId, owner.workspaceId, {
      requireApproval: false,
    });
    await createPost(owner, tweet(owner, { status: 'scheduled', scheduledAt: inOneHour() })); // post.scheduled
    await createPost(owner, tweet(owner, { content: 'Big [sandbox:media_too_large]' })); // post.failed
    const revoked = await host.admin.createSandboxAccount({
      tenantId: owner.tenantId,
      workspaceId: owner.workspaceId,
      platform: 'twitter',
    });
    await createPost(
      owner,
      tweet(owner, { accountId: revoked.accountId, content: 'Gone [sandbox:token_revoked]' }),
    ); // account.disconnected
    // post.queued, post.published, post.first_comment_failed (the sandbox refuses the comment), then
    // post.metrics: a refresh has its first numbers read at once.
    const plain = await createPost(owner, {
      platform: 'linkedin',
      accountId: owner.accounts.linkedin,
      status: 'publish',
      postType: 'text',
      content: 'Plain',
      firstComment: { text: 'Refused [sandbox:rejected]' },
    });
    await eventually(
      async () => {
        const refreshed = await host.call(
          `/v1/workspaces/${owner.workspaceId}/posts/${plain}/metrics/refresh`,
          { method: 'POST', apiKey: owner.apiKey },
        );
        return refreshed.status === 202 ? true : undefined;
      },
      { timeoutMs: 15_000, what: `post ${plain} published and its metrics refreshed` },
    );
    // post.queued, then post.awaiting_creator: a TikTok post handed to the creator's inbox.
    await createPost(owner, {
      platform: 'tiktok',
      accountId: owner.accounts.tiktok,
      status: 'publish',
      postType: 'video',
      content: 'For the inbox',
      media: [{ id: await storedVideo(owner) }],
      platformOptions: { tiktok: { mode: 'inbox' } },
    });

    // Assess: every event type arrives at the webhook subscribed to everything.
    await eventually(
      async () => {
        const types = new Set(receiver.at(everything.path).map((r) => bodyOf(r).type));
        return EVENT_TYPES.every((type) => types.has(type)) ? true : undefined;
      },
      { timeoutMs: 20_000, what: 'every event type at the receiver' },
    );
    // Every event of the workspace, as the fan-out put it in the feed (read from the store: the API
    // holds the newest 5 s back). Seventeen: approval.requested and .decided, post.queued five times,
    // post.published twice, post.scheduled, post.failed twice, account.disconnected, post.metrics,
    // post.awaiting_creator, post.first_comment_published and post.first_comment_failed.
    const feedEvents = async () =>
      (await host.deps.webhooks.readEvents(owner.tenantId, owner.workspaceId, { limit: 100 })).items;
    const events = await eventually(
      async () => {
        const all = await feedEvents();
        return all.length >= 17 && receiver.at(everything.path).length >= all.length ? all : undefined;
      },
      { timeoutMs: 20_000, what: 'every event of the feed at the receiver' },
    );
    expect(events).toHaveLength(17);
    const published = events.filter((e) => e.type === 'post.published');
    expect(published).toHaveLength(2);
    await eventually(
      async () => (receiver.at(publishedOnly.path).length >= published.length ? true : undefined),
      { what: 'both post.published events' },
    );
    // A moment for any duplicate to show up.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const atEverything = receiver.at(everything.path);
    expect(atEverything.map((r) => bodyOf(r).id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(new Set(atEverything.map((r) => r.headers['x-webhook-id'])).size).toBe(atEverything.length);
    expect(
      receiver
        .at(publishedOnly.path)
        .map((r) => bodyOf(r).id)
        .sort(),
    ).toEqual(published.map((e) => e.id).sort());
    for (const [webhook, requests] of [
      [everything, atEverything],
      [publishedOnly, receiver.at(publishedOnly.path)],
    ] as const) {
      for (const request of requests) {
        const body = bodyOf(request);
        // The independent verifier: Stripe's library, the same scheme, over the raw bytes.
        const verified = Stripe.webhooks.constructEvent(
          request.rawBody,
          signatureOf(request),
          webhook.secret,
        );
        expect(verified.id).toBe(body.id);
        expect(request.headers['x-webhook-id']).toBe(body.id);
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.headers['user-agent']).toMatch(/^social-publishing-api-webhooks\/\d+\.\d+\.\d+$/);
        expect(body).not.toHaveProperty('tenantId');
        expect(body.workspaceId).toBe(owner.workspaceId);
        // Signed with this webhook's secret, not another's.
        expect(() =>
          Stripe.webhooks.constructEvent(request.rawBody, signatureOf(request), otherTenant.secret),
        ).toThrow();
      }
    }
    expect(receiver.at(otherTenant.path)).toEqual([]);
    expect(receiver.at(otherWorkspace.path)).toEqual([]);
    // The history says the same: one delivery per event, each succeeded at the first attempt.
    const history = await deliveries(owner, everything.id);
    expect(history.map((d) => d.eventId).sort()).toEqual(events.map((e) => e.id).sort());
    for (const delivery of history) {
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, responseStatus: 200, error: null });
    }
  });

  it('a receiver answering 500 twice then 200 gets three attempts with the same event id, all in the history', async () => {
    // Prepare
    const webhook = await register(tenant, ['post.published']);
    receiver.answer(webhook.path, { status: 500 }, { status: 500 }, { status: 200 });

    // Act
    await createPost(tenant, tweet(tenant, { content: 'Flaky receiver' }));

    // Assess
    const delivery = await settledDelivery(tenant, webhook.id);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 3,
      responseStatus: 200,
      nextAttemptAt: null,
    });
    expect(delivery.attemptHistory.map((a) => [a.responseStatus, a.error])).toEqual([
      [500, 'The receiver answered HTTP 500.'],
      [500, 'The receiver answered HTTP 500.'],
      [200, null],
    ]);
    const requests = receiver.at(webhook.path);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([delivery.eventId]));
    // Each attempt is signed afresh: every one verifies.
    for (const request of requests) {
      expect(Stripe.webhooks.constructEvent(request.rawBody, signatureOf(request), webhook.secret).id).toBe(
        delivery.eventId,
      );
    }
    expect(await webhookOf(tenant, webhook.id)).toMatchObject({
      lastDeliveryStatus: 'succeeded',
      consecutiveFailures: 0,
    });
  });

  it('a receiver that takes 6 s is a failed attempt (5 s for the whole response), retried', async () => {
    // Prepare
    const webhook = await register(tenant, ['post.published']);
    receiver.answer(webhook.path, { status: 200, delayMs: 6_000 });

    // Act
    await createPost(tenant, tweet(tenant, { content: 'Slow receiver' }));

    // Assess
    const delivery = await settledDelivery(tenant, webhook.id, 20_000);
    expect(delivery.status).toBe('succeeded');
    const [slow, retry] = delivery.attemptHistory;
    expect(slow).toMatchObject({ responseStatus: null, error: 'No complete response within 5 s.' });
    expect(slow?.durationMs).toBeGreaterThanOrEqual(5_000);
    expect(slow?.durationMs).toBeLessThan(6_000);
    expect(retry).toMatchObject({ responseStatus: 200, error: null });
  }, 30_000);

  it('a receiver that always fails: failed after the last attempt, consecutiveFailures shows it, the webhook stays', async () => {
    // Prepare
    const webhook = await register(tenant, ['post.published']);
    receiver.answer(webhook.path, ...Array(4).fill({ status: 503 }));

    // Act
    await createPost(tenant, tweet(tenant, { content: 'Dead receiver' }));

    // Assess
    const delivery = await settledDelivery(tenant, webhook.id);
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 4,
      responseStatus: 503,
      nextAttemptAt: null,
    });
    expect(await webhookOf(tenant, webhook.id)).toMatchObject({
      lastDeliveryStatus: 'failed',
      consecutiveFailures: 1,
    });
  });

  it('a redirect is not followed: a failed attempt, nothing sent to where it points', async () => {
    // Prepare
    const webhook = await register(tenant, ['post.published']);
    const elsewhere = `${webhook.path}/elsewhere`;
    receiver.answer(webhook.path, { status: 302, headers: { location: receiver.url(elsewhere) } });

    // Act
    await createPost(tenant, tweet(tenant, { content: 'Redirecting receiver' }));

    // Assess
    const delivery = await settledDelivery(tenant, webhook.id);
    expect(delivery.attemptHistory[0]).toMatchObject({
      responseStatus: 302,
      error: 'The receiver answered HTTP 302, a redirect, which is not followed.',
    });
    expect(delivery.attemptHistory[1]).toMatchObject({ responseStatus: 200, error: null });
    expect(receiver.at(webhook.path)).toHaveLength(2);
    expect(receiver.at(elsewhere)).toEqual([]);
  });

  it('deleting the webhook stops its retries', async () => {
    // Prepare: a receiver that fails, so a retry is queued 1 s after each attempt.
    const webhook = await register(tenant, ['post.published']);
    receiver.answer(webhook.path, ...Array(4).fill({ status: 500 }));
    await createPost(tenant, tweet(tenant, { content: 'Deleted receiver' }));
    await eventually(async () => (receiver.at(webhook.path).length >= 1 ? true : undefined), {
      what: 'the first attempt',
    });

    // Act
    const deleted = await host.call(`/v1/webhooks/${webhook.id}`, {
      method: 'DELETE',
      apiKey: tenant.apiKey,
    });

    // Assess: past the time two more attempts would have taken, still only what came before.
    expect(deleted.status).toBe(204);
    const before = receiver.at(webhook.path).length;
    expect(before).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(receiver.at(webhook.path)).toHaveLength(before);
    expect(
      host.logs.some(
        (line) =>
          line.message === 'webhook dispatch dropped: the webhook was deleted' &&
          line.fields.webhookId === webhook.id,
      ),
    ).toBe(true);
  });

  it('a redelivery through the API sends the same event again, with the same id', async () => {
    // Prepare
    const webhook = await register(tenant, ['post.published']);
    await createPost(tenant, tweet(tenant, { content: 'Redeliver me' }));
    const first = await settledDelivery(tenant, webhook.id);

    // Act
    const retried = await host.call(
      `/v1/workspaces/${tenant.workspaceId}/webhooks/${webhook.id}/deliveries/${first.id}/retry`,
      { method: 'POST', apiKey: tenant.apiKey },
    );

    // Assess
    expect(retried.status).toBeLessThan(300);
    await eventually(async () => (receiver.at(webhook.path).length >= 2 ? true : undefined), {
      what: 'the redelivery',
    });
    const [original, again] = receiver.at(webhook.path);
    expect(again?.headers['x-webhook-id']).toBe(first.eventId);
    expect(again?.rawBody.equals(original?.rawBody ?? Buffer.alloc(0))).toBe(true);
    const delivery = await settledDelivery(tenant, webhook.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('a test event goes to that webhook alone, signed like any other', async () => {
    // Prepare
    const webhook = await register(tenant, ['post.failed']);
    const bystander = await register(tenant, ['post.failed']);

    // Act
    const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/webhooks/${webhook.id}/test`, {
      method: 'POST',
      apiKey: tenant.apiKey,
    });

    // Assess
    expect(response.status).toBeLessThan(300);
    const [request] = await eventually(
      async () => (receiver.at(webhook.path).length > 0 ? receiver.at(webhook.path) : undefined),
      { what: 'the test event' },
    );
    if (!request) throw new Error('no request');
    const event = Stripe.webhooks.constructEvent(request.rawBody, signatureOf(request), webhook.secret);
    expect(event.type).toBe('webhook.test');
    expect(bodyOf(request).data).toMatchObject({ webhookId: webhook.id });
    expect(receiver.at(bystander.path)).toEqual([]);
  });
});
