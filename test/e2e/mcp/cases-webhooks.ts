import { expect } from 'vitest';
import { expectEnvelope } from '../../support/envelope.js';
import { eventually } from '../../support/eventually.js';
import {
  bodyOf,
  expectReadsBack,
  expectSameAnswer,
  expectSameShape,
  expectSuccess,
  idOf,
  type ParityContext,
  registerWebhook,
  settledDelivery,
  type ToolCase,
} from './parity-context.js';
import { itemsOf } from './support.js';

/** A webhook with one finished webhook.test delivery, both made over REST. */
async function webhookWithDelivery(ctx: ParityContext) {
  const webhook = await registerWebhook(ctx);
  const started = bodyOf(await ctx.rest('POST', `${ctx.ws}/webhooks/${webhook.id}/test`), 202);
  const delivery = await settledDelivery(ctx, webhook.id, idOf(started));
  return { webhook, delivery };
}

/** The event ids that reached one receiver path. */
const eventIdsAt = (ctx: ParityContext, path: string) =>
  ctx.receiver.at(path).map((request) => String(request.headers['x-webhook-id']));

export const webhookCases: Record<string, ToolCase> = {
  async createWebhook(ctx) {
    const body = {
      url: ctx.receiver.url('/hooks/created'),
      events: ['post.published'],
      description: 'Via MCP',
    };
    const call = await ctx.mcp.call('createWebhook', { workspaceId: ctx.tenant.workspaceId, body });
    const created = expectSuccess(call, 201);
    expect(created.secret).toMatch(/^whsec_/);
    // The secret is shown once; everything else reads back over REST as the tool answered it.
    const { secret: _secret, ...readable } = created;
    expectReadsBack(
      { ...call, body: readable },
      await ctx.rest('GET', `${ctx.ws}/webhooks/${idOf(created)}`),
    );
    expectSameShape(call, await ctx.rest('POST', `${ctx.ws}/webhooks`, body));
  },

  async listWebhooks(ctx) {
    await registerWebhook(ctx);
    const call = await ctx.mcp.call('listWebhooks', { workspaceId: ctx.tenant.workspaceId });
    expect((expectSuccess(call, 200).data as unknown[]).length).toBeGreaterThan(0);
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/webhooks`));
  },

  async getWebhook(ctx) {
    const { id } = await registerWebhook(ctx);
    const call = await ctx.mcp.call('getWebhook', { workspaceId: ctx.tenant.workspaceId, webhookId: id });
    expect(expectSuccess(call, 200).id).toBe(id);
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/webhooks/${id}`));
  },

  async deleteWebhook(ctx) {
    const [viaMcp, viaRest] = [await registerWebhook(ctx), await registerWebhook(ctx)];
    const call = await ctx.mcp.call('deleteWebhook', {
      workspaceId: ctx.tenant.workspaceId,
      webhookId: viaMcp.id,
    });
    expectSuccess(call, 204);
    await expectEnvelope(
      await ctx.host.call(`${ctx.ws}/webhooks/${viaMcp.id}`, { apiKey: ctx.tenant.apiKey }),
      404,
      'not_found',
    );
    expect((await ctx.rest('DELETE', `${ctx.ws}/webhooks/${viaRest.id}`)).status).toBe(204);
  },

  async listWebhookDeliveries(ctx) {
    const { webhook, delivery } = await webhookWithDelivery(ctx);
    const call = await ctx.mcp.call('listWebhookDeliveries', {
      workspaceId: ctx.tenant.workspaceId,
      webhookId: webhook.id,
      status: 'succeeded',
    });
    expect(expectSuccess(call, 200).data).toEqual([delivery]);
    expectSameAnswer(
      call,
      await ctx.rest('GET', `${ctx.ws}/webhooks/${webhook.id}/deliveries?status=succeeded`),
    );
  },

  async retryWebhookDelivery(ctx) {
    const { webhook, delivery } = await webhookWithDelivery(ctx);
    const ids = { workspaceId: ctx.tenant.workspaceId, webhookId: webhook.id, deliveryId: delivery.id };
    const call = await ctx.mcp.call('retryWebhookDelivery', ids);
    expect(expectSuccess(call, 202)).toMatchObject({
      id: delivery.id,
      eventId: delivery.eventId,
      status: 'pending',
    });
    // The same event again at the receiver, then the delivery's history shows the second attempt.
    await eventually(async () => (eventIdsAt(ctx, webhook.path).length >= 2 ? true : undefined), {
      what: 'the redelivery',
    });
    expect(eventIdsAt(ctx, webhook.path)).toEqual([delivery.eventId, delivery.eventId]);
    const retried = await settledDelivery(ctx, webhook.id, String(delivery.id));
    expect(retried.attempts).toBe(2);
    expectSameShape(
      call,
      await ctx.rest('POST', `${ctx.ws}/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`),
    );
  },

  async testWebhook(ctx) {
    const [viaMcp, viaRest] = [await registerWebhook(ctx), await registerWebhook(ctx)];
    const call = await ctx.mcp.call('testWebhook', {
      workspaceId: ctx.tenant.workspaceId,
      webhookId: viaMcp.id,
    });
    const started = expectSuccess(call, 202);
    expect(started).toMatchObject({ webhookId: viaMcp.id, eventType: 'webhook.test', status: 'pending' });
    expectSameShape(call, await ctx.rest('POST', `${ctx.ws}/webhooks/${viaRest.id}/test`));
    const delivered = await settledDelivery(ctx, viaMcp.id, idOf(started));
    expect(delivered).toMatchObject({ status: 'succeeded', responseStatus: 200 });
    expect(eventIdsAt(ctx, viaMcp.path)).toEqual([started.eventId]);
  },

  async listEvents(ctx) {
    const args = { workspaceId: ctx.tenant.workspaceId, limit: 100 };
    // The feed shows an event 5 s after its change (the posts of the cases before): polled until
    // some are there, and until the two reads agree, as one may turn visible between them.
    await eventually(
      async () => {
        const call = await ctx.mcp.call('listEvents', args);
        const answer = await ctx.rest('GET', `${ctx.ws}/events?limit=100`);
        expectSameAnswer(call, answer);
        return itemsOf(call.body).length > 0 ? true : undefined;
      },
      { timeoutMs: 15_000, what: 'listEvents to show events and agree with GET .../events' },
    );
  },
};
