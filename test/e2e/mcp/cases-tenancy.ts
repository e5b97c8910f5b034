import Ajv2020 from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { PLATFORM_IDS } from '../../../shared/networks/definitions.js';
import { seedRealAccount } from '../../support/metrics-fixtures.js';
import { expectSameAnswer, expectSuccess, type ToolCase } from './parity-context.js';

export const tenancyCases: Record<string, ToolCase> = {
  async listWorkspaces(ctx) {
    const call = await ctx.mcp.call('listWorkspaces');
    expect(expectSuccess(call, 200).data).toEqual([expect.objectContaining({ id: ctx.tenant.workspaceId })]);
    expectSameAnswer(call, await ctx.rest('GET', '/v1/workspaces'));
  },

  async listNetworks(ctx) {
    const call = await ctx.mcp.call('listNetworks');
    const networks = expectSuccess(call, 200).data as { platform: string; platformOptions: object }[];
    expect(networks.map((network) => network.platform)).toEqual([...PLATFORM_IDS]);
    // Each network's platformOptions schema is what a create checks: TikTok's takes its privacy
    // level and refuses a field it does not have, as createPost does.
    const tiktok = networks.find((network) => network.platform === 'tiktok');
    const accepts = new Ajv2020({ strict: false }).compile(tiktok?.platformOptions ?? {});
    expect(accepts({ privacyLevel: 'SELF_ONLY', disableComment: true })).toBe(true);
    expect(accepts({ privacyLevel: 'SELF_ONLY', shareToStory: true })).toBe(false);
    expect(accepts({ privacyLevel: 'EVERYONE' })).toBe(false);
    expectSameAnswer(call, await ctx.rest('GET', '/v1/networks'));
  },

  async listAccounts(ctx) {
    const call = await ctx.mcp.call('listAccounts', {
      workspaceId: ctx.tenant.workspaceId,
      platform: 'linkedin',
    });
    expect(expectSuccess(call, 200).data).toEqual([expect.objectContaining({ platform: 'linkedin' })]);
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/accounts?platform=linkedin`));
  },

  async getAccount(ctx) {
    const accountId = ctx.tenant.accounts.youtube;
    const call = await ctx.mcp.call('getAccount', { workspaceId: ctx.tenant.workspaceId, accountId });
    expect(expectSuccess(call, 200)).toMatchObject({ id: accountId, platform: 'youtube' });
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/accounts/${accountId}`));
  },

  async getAccountMetrics(ctx) {
    // A real-network account with two daily readings: the same answer both ways.
    const at = new Date(ctx.host.deps.clock.now()).toISOString();
    const yesterday = new Date(Date.parse(at) - 86_400_000).toISOString();
    const accountId = await seedRealAccount(ctx.host, ctx.tenant, {
      at,
      metrics: {
        readings: [
          { collectedAt: yesterday, metrics: { followers: 120 } },
          { collectedAt: at, metrics: { followers: 131 } },
        ],
      },
    });
    const call = await ctx.mcp.call('getAccountMetrics', { workspaceId: ctx.tenant.workspaceId, accountId });
    expect(expectSuccess(call, 200)).toMatchObject({ metrics: { followers: 131 } });
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/accounts/${accountId}/metrics`));
    // A sandbox account none of whose posts has been collected has no reading yet: the same 409 both ways.
    const sandbox = ctx.tenant.accounts.youtube;
    const refused = await ctx.mcp.call('getAccountMetrics', {
      workspaceId: ctx.tenant.workspaceId,
      accountId: sandbox,
    });
    const rest = await ctx.rest('GET', `${ctx.ws}/accounts/${sandbox}/metrics`);
    expect(rest.status).toBe(409);
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject(rest.body as Record<string, unknown>);
  },

  async connectAccount(ctx) {
    // The parity host has no network app configured: both doors refuse alike.
    const call = await ctx.mcp.call('connectAccount', {
      workspaceId: ctx.tenant.workspaceId,
      body: { platform: 'linkedin' },
    });
    const answer = await ctx.rest('POST', `${ctx.ws}/accounts/connect`, { platform: 'linkedin' });
    expect(answer.status).toBe(409);
    expect(call.isError).toBe(true);
    expect(call.body).toEqual({ ...answer.body, status: 409 });
  },

  async disconnectAccount(ctx) {
    const sandbox = () =>
      ctx.host.admin.createSandboxAccount({
        tenantId: ctx.tenant.tenantId,
        workspaceId: ctx.tenant.workspaceId,
        platform: 'tiktok',
      });
    const [viaMcp, viaRest] = [await sandbox(), await sandbox()];
    const call = await ctx.mcp.call('disconnectAccount', {
      workspaceId: ctx.tenant.workspaceId,
      accountId: viaMcp.accountId,
    });
    expectSuccess(call, 204);
    const answer = await ctx.rest('DELETE', `${ctx.ws}/accounts/${viaRest.accountId}`);
    expect(answer.status).toBe(204);
    for (const account of [viaMcp, viaRest]) {
      const read = await ctx.rest('GET', `${ctx.ws}/accounts/${account.accountId}`);
      expect(read.body).toMatchObject({ status: 'disconnected', disconnectReason: 'disconnected_by_user' });
    }
  },
};
