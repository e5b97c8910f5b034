import { expect } from 'vitest';
import { expectSameAnswer, expectSuccess, type ToolCase } from './parity-context.js';

export const tenancyCases: Record<string, ToolCase> = {
  async listWorkspaces(ctx) {
    const call = await ctx.mcp.call('listWorkspaces');
    expect(expectSuccess(call, 200).data).toEqual([expect.objectContaining({ id: ctx.tenant.workspaceId })]);
    expectSameAnswer(call, await ctx.rest('GET', '/v1/workspaces'));
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
};
