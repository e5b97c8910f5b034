import { expect } from 'vitest';
import { seedPostWithMetrics } from '../../support/metrics-fixtures.js';
import { inOneHour, tweet } from '../../support/post-fixtures.js';
import {
  bodyOf,
  expectReadsBack,
  expectSameAnswer,
  expectSameShape,
  expectSuccess,
  idOf,
  type ParityContext,
  type ToolCase,
} from './parity-context.js';
import type { RestAnswer } from './support.js';

/**
 * Posts are scheduled an hour ahead or kept as drafts: the delivery pipeline runs in this host,
 * and a post it published between the tool call and the REST read would not compare.
 */
const scheduled = (ctx: ParityContext, content: string) =>
  tweet(ctx.tenant, { status: 'scheduled', scheduledAt: inOneHour(), content });

const createOverRest = async (ctx: ParityContext, body: unknown) =>
  idOf(bodyOf(await ctx.rest('POST', `${ctx.ws}/posts`, body), 201));

/** Two posts waiting for approval: the workspace asks for it while they are created. */
async function postsAwaitingApproval(ctx: ParityContext) {
  const { tenancy } = ctx.host.deps;
  await tenancy.setWorkspacePolicies(ctx.tenant.tenantId, ctx.tenant.workspaceId, { requireApproval: true });
  try {
    const viaMcp = await createOverRest(ctx, scheduled(ctx, 'Needs a decision (MCP)'));
    const viaRest = await createOverRest(ctx, scheduled(ctx, 'Needs a decision (REST)'));
    return { viaMcp, viaRest };
  } finally {
    await tenancy.setWorkspacePolicies(ctx.tenant.tenantId, ctx.tenant.workspaceId, {
      requireApproval: false,
    });
  }
}

/** A change through the tool, read back over REST; the same change through REST on a twin post. */
async function changeBothWays(
  ctx: ParityContext,
  tool: string,
  posts: { viaMcp: string; viaRest: string },
  rest: (postId: string) => Promise<RestAnswer>,
  extra: Record<string, unknown> = {},
) {
  const call = await ctx.mcp.call(tool, {
    workspaceId: ctx.tenant.workspaceId,
    postId: posts.viaMcp,
    ...extra,
  });
  const changed = expectSuccess(call, 200);
  expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/posts/${posts.viaMcp}`));
  expectSameShape(call, await rest(posts.viaRest));
  return changed;
}

export const postCases: Record<string, ToolCase> = {
  async createPost(ctx) {
    const body = scheduled(ctx, 'Created through MCP');
    const call = await ctx.mcp.call('createPost', { workspaceId: ctx.tenant.workspaceId, body });
    const created = expectSuccess(call, 201);
    expect(created).toMatchObject({ status: 'scheduled', platform: 'twitter' });
    expectReadsBack(call, await ctx.rest('GET', `${ctx.ws}/posts/${idOf(created)}`));
    expectSameShape(call, await ctx.rest('POST', `${ctx.ws}/posts`, body));
  },

  async validatePost(ctx) {
    const body = tweet(ctx.tenant, { status: 'scheduled', scheduledAt: '2020-01-01T00:00:00Z' });
    const call = await ctx.mcp.call('validatePost', { workspaceId: ctx.tenant.workspaceId, body });
    expect(expectSuccess(call, 200)).toMatchObject({
      valid: false,
      errors: [{ code: 'SCHEDULED_AT_IN_PAST' }],
    });
    expectSameAnswer(call, await ctx.rest('POST', `${ctx.ws}/posts/validate`, body));
  },

  async getPost(ctx) {
    const postId = await createOverRest(ctx, scheduled(ctx, 'Read through MCP'));
    const call = await ctx.mcp.call('getPost', { workspaceId: ctx.tenant.workspaceId, postId });
    expect(expectSuccess(call, 200).id).toBe(postId);
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/posts/${postId}`));
  },

  async getPostMetrics(ctx) {
    // Published and read twice: the same numbers and history both ways.
    const at = new Date(ctx.host.deps.clock.now()).toISOString();
    const earlier = new Date(Date.parse(at) - 1_800_000).toISOString();
    const postId = await seedPostWithMetrics(ctx.host, ctx.tenant, {
      at,
      metrics: {
        readings: [
          { collectedAt: earlier, metrics: { likes: 1, views: 10 } },
          { collectedAt: at, metrics: { likes: 3, views: 25 } },
        ],
      },
    });
    const call = await ctx.mcp.call('getPostMetrics', { workspaceId: ctx.tenant.workspaceId, postId });
    expect(expectSuccess(call, 200)).toMatchObject({ postId, metrics: { likes: 3, views: 25 } });
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/posts/${postId}/metrics`));
    // Not published: the same 409 both ways.
    const draft = await createOverRest(ctx, scheduled(ctx, 'No numbers yet'));
    const refused = await ctx.mcp.call('getPostMetrics', {
      workspaceId: ctx.tenant.workspaceId,
      postId: draft,
    });
    const rest = await ctx.rest('GET', `${ctx.ws}/posts/${draft}/metrics`);
    expect(rest.status).toBe(409);
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject(rest.body as Record<string, unknown>);
  },

  async refreshPostMetrics(ctx) {
    // Published, read an hour ago (a refresh is allowed), on a network the workspace collects.
    const at = new Date(ctx.host.deps.clock.now()).toISOString();
    const metrics = {
      readings: [{ collectedAt: new Date(Date.parse(at) - 3_600_000).toISOString(), metrics: { likes: 1 } }],
    };
    const viaMcp = await seedPostWithMetrics(ctx.host, ctx.tenant, { at, metrics });
    const viaRest = await seedPostWithMetrics(ctx.host, ctx.tenant, { at, metrics });
    const call = await ctx.mcp.call('refreshPostMetrics', {
      workspaceId: ctx.tenant.workspaceId,
      postId: viaMcp,
    });
    expect(expectSuccess(call, 202).postId).toBe(viaMcp);
    expectSameShape(call, await ctx.rest('POST', `${ctx.ws}/posts/${viaRest}/metrics/refresh`));
    // Not published: the same 409 both ways.
    const draft = await createOverRest(ctx, scheduled(ctx, 'Not published'));
    const refused = await ctx.mcp.call('refreshPostMetrics', {
      workspaceId: ctx.tenant.workspaceId,
      postId: draft,
    });
    const rest = await ctx.rest('POST', `${ctx.ws}/posts/${draft}/metrics/refresh`);
    expect(rest.status).toBe(409);
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject(rest.body as Record<string, unknown>);
  },

  async listPosts(ctx) {
    await createOverRest(ctx, scheduled(ctx, 'Listed'));
    const call = await ctx.mcp.call('listPosts', {
      workspaceId: ctx.tenant.workspaceId,
      status: 'scheduled',
      limit: 2,
    });
    const page = expectSuccess(call, 200);
    expect(page.data).toHaveLength(2);
    expect(page.nextCursor).toEqual(expect.any(String));
    expectSameAnswer(call, await ctx.rest('GET', `${ctx.ws}/posts?status=scheduled&limit=2`));
  },

  async updatePost(ctx) {
    const draft = tweet(ctx.tenant, { status: 'draft', content: 'First words' });
    const posts = { viaMcp: await createOverRest(ctx, draft), viaRest: await createOverRest(ctx, draft) };
    const body = { content: 'Better words' };
    const updated = await changeBothWays(
      ctx,
      'updatePost',
      posts,
      (postId) => ctx.rest('PATCH', `${ctx.ws}/posts/${postId}`, body),
      { body },
    );
    expect(updated.content).toBe('Better words');
  },

  async cancelPost(ctx) {
    const body = scheduled(ctx, 'Never sent');
    const posts = { viaMcp: await createOverRest(ctx, body), viaRest: await createOverRest(ctx, body) };
    const cancelled = await changeBothWays(ctx, 'cancelPost', posts, (postId) =>
      ctx.rest('DELETE', `${ctx.ws}/posts/${postId}`),
    );
    expect(cancelled.status).toBe('cancelled');
  },

  async approvePost(ctx) {
    const posts = await postsAwaitingApproval(ctx);
    const approved = await changeBothWays(ctx, 'approvePost', posts, (postId) =>
      ctx.rest('POST', `${ctx.ws}/posts/${postId}/approve`),
    );
    expect(approved.status).toBe('scheduled');
  },

  async rejectPost(ctx) {
    const posts = await postsAwaitingApproval(ctx);
    const body = { reason: 'Off brand' };
    const rejected = await changeBothWays(
      ctx,
      'rejectPost',
      posts,
      (postId) => ctx.rest('POST', `${ctx.ws}/posts/${postId}/reject`, body),
      { body },
    );
    expect(rejected).toMatchObject({ status: 'rejected', approval: { reason: 'Off brand' } });
  },
};
