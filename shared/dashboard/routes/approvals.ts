import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { InvalidRequestError } from '../../domain/errors.js';
import { adminsWorkspace } from '../../domain/user-access.js';
import { callOperation } from '../call-operation.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { readForm, textOf } from '../forms.js';
import { empty, html } from '../html.js';
import { notFoundPage, page } from '../pages.js';
import { approvalNotice, approvalsQueue } from '../views/approvals-queue.js';
import { nextPageLink, pageStatusOf } from '../views/posts-format.js';
import type { PostResource } from '../views/posts-list.js';

const PAGE_SIZE = '25';

const approvalsPath = (workspaceId: string) => `${DASHBOARD_BASE}/workspaces/${workspaceId}/approvals`;

/** The queue: the workspace's posts with status pending_approval, a page at a time. */
async function approvalsPage(
  c: Context<DashboardEnv>,
  messages: { notice?: string; alert?: string },
  status: ContentfulStatusCode = 200,
) {
  const workspaceId = c.var.workspace.workspaceId;
  const cursor = c.req.query('cursor');
  const listed = await callOperation<{ data: PostResource[]; nextCursor: string | null }>(c, 'listPosts', {
    params: { workspace_id: workspaceId },
    query: { status: 'pending_approval', limit: PAGE_SIZE, ...(cursor && { cursor }) },
  });
  if (!listed.ok) {
    return page(
      c,
      { title: 'Approvals', body: empty, alert: listed.error.message },
      pageStatusOf(listed.error),
    );
  }
  const canDecide = adminsWorkspace(c.var.signedIn.user, workspaceId);
  const body = html`${approvalsQueue(c, workspaceId, listed.body.data, canDecide)}${nextPageLink(
    approvalsPath(workspaceId),
    {},
    listed.body.nextCursor,
  )}`;
  return page(c, { title: 'Approvals', body, ...messages }, status);
}

/** After a decision: back to the queue with its notice; a post of no one here is a 404. */
async function decide(
  c: Context<DashboardEnv>,
  operationId: 'approvePost' | 'rejectPost',
  body: unknown,
  done: 'approved' | 'rejected',
) {
  const workspaceId = c.var.workspace.workspaceId;
  const decided = await callOperation(c, operationId, {
    params: { workspace_id: workspaceId, post_id: c.req.param('postId') ?? '' },
    ...(body !== undefined && { body }),
  });
  if (decided.ok) return c.redirect(`${approvalsPath(workspaceId)}?done=${done}`, 303);
  const { error } = decided;
  if (error.status === 404 || (error instanceof InvalidRequestError && error.details?.['params.post_id'])) {
    return notFoundPage(c);
  }
  const alert =
    error instanceof InvalidRequestError
      ? 'To reject a post, give a reason (at most 1000 characters).'
      : error.message;
  return approvalsPage(c, { alert }, pageStatusOf(error));
}

export function registerApprovalRoutes(app: Hono<DashboardEnv>): void {
  app.get('/workspaces/:workspaceId/approvals', (c) =>
    approvalsPage(c, {
      ...(approvalNotice(c.req.query('done')) && { notice: approvalNotice(c.req.query('done')) }),
    }),
  );

  app.post('/workspaces/:workspaceId/posts/:postId/approve', (c) =>
    decide(c, 'approvePost', undefined, 'approved'),
  );

  app.post('/workspaces/:workspaceId/posts/:postId/reject', async (c) => {
    const reason = textOf(await readForm(c), 'reason');
    return decide(c, 'rejectPost', { reason }, 'rejected');
  });
}
