import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost } from '../../support/test-host.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { mediaCases } from './cases-media.js';
import { postCases } from './cases-posts.js';
import { tenancyCases } from './cases-tenancy.js';
import { webhookCases } from './cases-webhooks.js';
import { startMediaSource } from './media-source.js';
import type { ParityContext, ToolCase } from './parity-context.js';
import { connectMcp, restClient, toolOperations } from './support.js';

/** One case per tool, keyed by its name: a new operation without a case fails below. */
const cases: Record<string, ToolCase> = { ...tenancyCases, ...postCases, ...mediaCases, ...webhookCases };

/**
 * Every tool, called over MCP with valid input, answers what the same REST call answers: a read's
 * body equals REST's, a write's result reads back over REST and has the shape REST's own write
 * has. The host runs the delivery pipeline (webhooks reach a loopback receiver, imports fetch
 * from a loopback HTTPS server), in registry order, one tenant for all.
 */
describe('every MCP tool answers as its REST operation', () => {
  let ctx: ParityContext;

  beforeAll(async () => {
    const receiver = await startWebhookReceiver();
    const mediaSource = await startMediaSource();
    const host = await startTestHost({
      delivery: { sandboxLatencyMs: { min: 0, max: 5 }, fetchMedia: mediaSource.fetchMedia },
    });
    const tenant = await host.admin.bootstrap({ name: 'Parity' });
    ctx = {
      host,
      tenant,
      mcp: await connectMcp(host, tenant.apiKey),
      rest: restClient(host, tenant.apiKey),
      ws: `/v1/workspaces/${tenant.workspaceId}`,
      receiver,
      mediaSource,
    };
  });
  afterAll(async () => {
    await ctx.mcp.close();
    await ctx.host.stop();
    await ctx.receiver.stop();
    await ctx.mediaSource.stop();
  });

  it('the table has a case for every tool the server lists, and none for a tool it does not', () => {
    expect(Object.keys(cases).sort()).toEqual(ctx.mcp.tools.map((tool) => tool.name).sort());
  });

  it.each(toolOperations.map((operation) => operation.id))('%s', async (name) => {
    const run = cases[name];
    if (!run) throw new Error(`No parity case for the tool ${name}: add one to a cases-*.ts table.`);
    await run(ctx);
  });
});
