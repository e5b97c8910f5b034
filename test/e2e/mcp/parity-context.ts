import { expect } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { eventually } from '../../support/eventually.js';
import type { TestHost } from '../../support/test-host.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import type { MediaSource } from './media-source.js';
import { type McpSession, type Rest, type RestAnswer, shapeOf, type ToolCall } from './support.js';

/** What every parity case gets: one tenant reached through both doors. */
export interface ParityContext {
  host: TestHost;
  tenant: BootstrapResult;
  mcp: McpSession;
  rest: Rest;
  /** `/v1/workspaces/{workspaceId}`: the REST paths of the tenant's workspace. */
  ws: string;
  receiver: WebhookReceiver;
  mediaSource: MediaSource;
}

/** One tool's case: call it with valid input and hold its answer against REST's. */
export type ToolCase = (ctx: ParityContext) => Promise<void>;

/** The tool succeeded, with the status the operation documents. */
export function expectSuccess(call: ToolCall, status: number): Record<string, unknown> {
  expect(call.isError, JSON.stringify(call.body)).toBe(false);
  expect(call.status).toBe(status);
  if (status === 204) {
    expect(call.body).toBeUndefined();
    return {};
  }
  expect(call.body).toBeDefined();
  return call.body ?? {};
}

/** A read: the tool's structured content is the REST body, with the same status. */
export function expectSameAnswer(call: ToolCall, answer: RestAnswer) {
  expect(call.isError).toBe(answer.status >= 400);
  expect(call.status).toBe(answer.status);
  expect(call.body).toEqual(answer.body);
  // Clients that read only `content` get the same JSON as text.
  if (answer.body !== undefined) expect(JSON.parse(call.text[0] ?? 'null')).toEqual(answer.body);
}

/** What a write answered reads back over REST (a create answers a subset of the resource). */
export function expectReadsBack(call: ToolCall, read: RestAnswer) {
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject(call.body ?? {});
}

/** The same write through both doors: same status, same structure (ids and times differ). */
export function expectSameShape(call: ToolCall, answer: RestAnswer) {
  expect(call.status).toBe(answer.status);
  expect(call.isError).toBe(false);
  expect(shapeOf(call.body)).toEqual(shapeOf(answer.body));
}

/** Reads a REST answer's body, failing the case on an unexpected status. */
export function bodyOf(answer: RestAnswer, status: number): Record<string, unknown> {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body ?? {};
}

export const idOf = (body: Record<string, unknown>, key = 'id') => String(body[key]);

/** Issues an upload URL over REST and PUTs the bytes to it; resolves once the media is uploaded. */
export async function uploadMedia(ctx: ParityContext, bytes: Buffer, mimeType = 'image/png') {
  const issued = bodyOf(
    await ctx.rest('POST', `${ctx.ws}/media/upload-url`, {
      filename: 'cat.png',
      mimeType,
      sizeBytes: bytes.length,
    }),
    201,
  );
  const put = await fetch(String(issued.uploadUrl), {
    method: 'PUT',
    headers: { 'Content-Type': mimeType },
    body: bytes,
  });
  expect(put.status).toBe(200);
  return settledMedia(ctx, idOf(issued, 'mediaId'));
}

/** Polls REST until the media is no longer pending. */
export const settledMedia = (ctx: ParityContext, mediaId: string) =>
  eventually(
    async () => {
      const media = bodyOf(await ctx.rest('GET', `${ctx.ws}/media/${mediaId}`), 200);
      return media.status === 'pending' ? undefined : media;
    },
    { what: `media ${mediaId} to settle` },
  );

let hookPaths = 0;

/** Registers a webhook over REST at a fresh path of the receiver. */
export async function registerWebhook(ctx: ParityContext) {
  hookPaths += 1;
  const path = `/hooks/${hookPaths}`;
  const created = bodyOf(
    await ctx.rest('POST', `${ctx.ws}/webhooks`, { url: ctx.receiver.url(path), events: ['post.published'] }),
    201,
  );
  return { id: idOf(created), path, url: ctx.receiver.url(path) };
}

/** Waits until the delivery has finished (succeeded or failed), read over REST. */
export const settledDelivery = (ctx: ParityContext, webhookId: string, deliveryId: string) =>
  eventually(
    async () => {
      const page = bodyOf(await ctx.rest('GET', `${ctx.ws}/webhooks/${webhookId}/deliveries`), 200);
      const delivery = (page.data as Record<string, unknown>[]).find((item) => item.id === deliveryId);
      return delivery && delivery.status !== 'pending' ? delivery : undefined;
    },
    { what: `delivery ${deliveryId} to finish` },
  );
