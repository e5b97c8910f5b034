import type { MiddlewareHandler } from 'hono';
import { adminsWorkspace, seesWorkspace } from '../domain/user-access.js';
import type { DashboardEnv } from './env.js';
import { forbiddenPage, notFoundPage } from './pages.js';

const WORKSPACE_ID = /^wks_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Every `/workspaces/:workspaceId/…` page: 404 unless the workspace is the user's tenant's and
 * one they may see (never telling whether it exists), then 403 for any POST unless they
 * administer it (a viewer changes nothing). Sets `workspace` for the page and the navigation.
 */
export const workspaceGuard: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  const workspaceId = c.req.param('workspaceId') ?? '';
  const { user, tenant } = c.var.signedIn;
  if (!WORKSPACE_ID.test(workspaceId) || !seesWorkspace(user, workspaceId)) return notFoundPage(c);
  const workspace = await c.var.deps.services.tenancy.getWorkspace(tenant.tenantId, workspaceId);
  if (!workspace) return notFoundPage(c);
  c.set('workspace', workspace);
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && !adminsWorkspace(user, workspaceId)) {
    return forbiddenPage(c, 'change anything in this workspace');
  }
  await next();
};
