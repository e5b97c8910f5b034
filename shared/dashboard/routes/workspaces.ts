import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { adminsWorkspace, isTenantAdmin, seesWorkspace } from '../../domain/user-access.js';
import { callOperation } from '../call-operation.js';
import type { DashboardEnv } from '../env.js';
import { type FormProblem, listOf, readForm, textOf } from '../forms.js';
import { forbiddenPage, page } from '../pages.js';
import { noticeOf, refusalOf, workspacesPath } from '../views/workspaces-format.js';
import { workspacesBody } from '../views/workspaces-list.js';
import { workspaceMetricsSection } from '../views/workspaces-metrics.js';
import { readWorkspaceMetrics } from '../views/workspaces-metrics-read.js';
import { type WorkspaceStart, workspaceOverviewBody } from '../views/workspaces-overview.js';

const OVERVIEW_NOTICES = {
  created: 'Workspace created.',
  renamed: 'Workspace renamed.',
  metrics: 'Metrics collection saved.',
} as const;

async function listPage(
  c: Context<DashboardEnv>,
  form: { name?: string; problem?: FormProblem } = {},
  status: ContentfulStatusCode = 200,
) {
  const { user, tenant } = c.var.signedIn;
  const all = await c.var.deps.admin.listWorkspaces(tenant.tenantId);
  const workspaces = all.filter((workspace) => seesWorkspace(user, workspace.workspaceId));
  return page(
    c,
    { title: 'Workspaces', body: workspacesBody(c, { workspaces, canCreate: isTenantAdmin(user), ...form }) },
    status,
  );
}

/** Whether the workspace has accounts and posts yet (one item of each listing is enough). */
async function workspaceStart(
  c: Context<DashboardEnv>,
  workspaceId: string,
): Promise<WorkspaceStart | undefined> {
  const one = { params: { workspace_id: workspaceId }, query: { limit: '1' } };
  const [accounts, posts] = await Promise.all([
    callOperation<{ data: unknown[] }>(c, 'listAccounts', one),
    callOperation<{ data: unknown[] }>(c, 'listPosts', one),
  ]);
  if (!accounts.ok || !posts.ok) return undefined;
  return { hasAccounts: accounts.body.data.length > 0, hasPosts: posts.body.data.length > 0 };
}

async function overviewPage(
  c: Context<DashboardEnv>,
  form: { name?: string; problem?: FormProblem } = {},
  status: ContentfulStatusCode = 200,
) {
  const workspace = c.var.workspace;
  const canRename = adminsWorkspace(c.var.signedIn.user, workspace.workspaceId);
  const start = await workspaceStart(c, workspace.workspaceId);
  // A workspace without posts has its next steps instead; with some, its last 30 days' metrics.
  const metrics = start?.hasPosts
    ? workspaceMetricsSection(workspace.workspaceId, await readWorkspaceMetrics(c, workspace.workspaceId))
    : undefined;
  return page(
    c,
    {
      title: workspace.name,
      body: workspaceOverviewBody(c, {
        workspace,
        canRename,
        ...(start && { start }),
        ...(metrics && { metrics }),
        ...form,
      }),
      ...(status === 200 && { notice: noticeOf(c.req.query('done'), OVERVIEW_NOTICES) }),
    },
    status,
  );
}

/** Workspaces: the list, creating one (tenant admins), a workspace's overview and renaming it. */
export function registerWorkspaceRoutes(app: Hono<DashboardEnv>): void {
  app.get('/workspaces', (c) => listPage(c));

  app.post('/workspaces', async (c) => {
    const { user, tenant } = c.var.signedIn;
    if (!isTenantAdmin(user)) return forbiddenPage(c, 'create workspaces');
    const name = textOf(await readForm(c), 'name');
    try {
      const workspace = await c.var.deps.admin.createWorkspace({ tenantId: tenant.tenantId, name });
      return c.redirect(`${workspacesPath(workspace.workspaceId)}?done=created`, 303);
    } catch (error) {
      const { problem, status } = refusalOf(error);
      return listPage(c, { name, problem }, status);
    }
  });

  // The guard has answered 404 for a workspace the user may not see, and 403 for a POST by someone
  // who does not administer it.
  app.get('/workspaces/:workspaceId', (c) => overviewPage(c));

  app.post('/workspaces/:workspaceId/rename', async (c) => {
    const name = textOf(await readForm(c), 'name');
    try {
      await c.var.deps.admin.renameWorkspace({
        tenantId: c.var.signedIn.tenant.tenantId,
        workspaceId: c.var.workspace.workspaceId,
        name,
      });
      return c.redirect(`${workspacesPath(c.var.workspace.workspaceId)}?done=renamed`, 303);
    } catch (error) {
      const { problem, status } = refusalOf(error);
      return overviewPage(c, { name, problem }, status);
    }
  });
  app.post('/workspaces/:workspaceId/metrics-collection', async (c) => {
    const platforms = listOf(await readForm(c), 'platforms');
    try {
      await c.var.deps.admin.setMetricsCollection({
        tenantId: c.var.signedIn.tenant.tenantId,
        workspaceId: c.var.workspace.workspaceId,
        platforms,
      });
      return c.redirect(`${workspacesPath(c.var.workspace.workspaceId)}?done=metrics`, 303);
    } catch (error) {
      const { problem, status } = refusalOf(error);
      return overviewPage(c, { problem }, status);
    }
  });
}
