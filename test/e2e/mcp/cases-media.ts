import { expect } from 'vitest';
import { expectEnvelope } from '../../support/envelope.js';
import { PNG } from './media-source.js';
import {
  bodyOf,
  expectSameAnswer,
  expectSameShape,
  expectSuccess,
  idOf,
  type ParityContext,
  settledMedia,
  type ToolCase,
  uploadMedia,
} from './parity-context.js';

const uploadRequest = { filename: 'cat.png', mimeType: 'image/png', sizeBytes: PNG.length };

/** A media record left pending (an upload URL issued, nothing PUT): it stays as it is. */
const pendingMedia = async (ctx: ParityContext) =>
  idOf(bodyOf(await ctx.rest('POST', `${ctx.ws}/media/upload-url`, uploadRequest), 201), 'mediaId');

export const mediaCases: Record<string, ToolCase> = {
  async createUploadUrl(ctx) {
    const call = await ctx.mcp.call('createUploadUrl', {
      workspaceId: ctx.tenant.workspaceId,
      body: uploadRequest,
    });
    const issued = expectSuccess(call, 201);
    expectSameShape(call, await ctx.rest('POST', `${ctx.ws}/media/upload-url`, uploadRequest));
    const mediaId = idOf(issued, 'mediaId');
    expect(bodyOf(await ctx.rest('GET', `${ctx.ws}/media/${mediaId}`), 200)).toMatchObject({
      mediaId,
      status: 'pending',
    });
    // The URL the tool handed out is a working presigned upload.
    const put = await fetch(String(issued.uploadUrl), {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png' },
      body: PNG,
    });
    expect(put.status).toBe(200);
    expect((await settledMedia(ctx, mediaId)).status).toBe('uploaded');
  },

  async confirmMedia(ctx) {
    const mediaId = idOf(await uploadMedia(ctx, PNG), 'mediaId');
    const call = await ctx.mcp.call('confirmMedia', { workspaceId: ctx.tenant.workspaceId, mediaId });
    expect(expectSuccess(call, 200)).toMatchObject({ mediaId, status: 'uploaded' });
    // Confirming is idempotent: REST's confirm of the same media answers the same.
    expectSameAnswer(call, await ctx.rest('POST', `${ctx.ws}/media/${mediaId}/confirm`));
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/media/${mediaId}`));
  },

  async importMedia(ctx) {
    const body = { url: ctx.mediaSource.url, type: 'image' };
    const call = await ctx.mcp.call('importMedia', { workspaceId: ctx.tenant.workspaceId, body });
    const started = expectSuccess(call, 202);
    const restImport = await ctx.rest('POST', `${ctx.ws}/media`, body);
    expectSameShape(call, restImport);
    for (const mediaId of [idOf(started, 'mediaId'), idOf(bodyOf(restImport, 202), 'mediaId')]) {
      expect(await settledMedia(ctx, mediaId)).toMatchObject({
        status: 'uploaded',
        mimeType: 'image/png',
        sizeBytes: PNG.length,
      });
    }
  },

  async getMedia(ctx) {
    const mediaId = await pendingMedia(ctx);
    const call = await ctx.mcp.call('getMedia', { workspaceId: ctx.tenant.workspaceId, mediaId });
    expect(expectSuccess(call, 200).mediaId).toBe(mediaId);
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/media/${mediaId}`));
  },

  async listMedia(ctx) {
    await pendingMedia(ctx);
    const call = await ctx.mcp.call('listMedia', { workspaceId: ctx.tenant.workspaceId, limit: 100 });
    expect((expectSuccess(call, 200).data as unknown[]).length).toBeGreaterThan(0);
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/media?limit=100`));
  },

  async deleteMedia(ctx) {
    const [viaMcp, viaRest] = [await pendingMedia(ctx), await pendingMedia(ctx)];
    const call = await ctx.mcp.call('deleteMedia', { workspaceId: ctx.tenant.workspaceId, mediaId: viaMcp });
    expectSuccess(call, 204);
    expect(call.text.join(' ')).toMatch(/204/);
    await expectEnvelope(
      await ctx.host.call(`${ctx.ws}/media/${viaMcp}`, { apiKey: ctx.tenant.apiKey }),
      404,
      'not_found',
    );
    const restDelete = await ctx.rest('DELETE', `${ctx.ws}/media/${viaRest}`);
    expect(restDelete.status).toBe(204);
  },
};
