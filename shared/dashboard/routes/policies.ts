import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { InvalidRequestError } from '../../domain/errors.js';
import type { WorkspacePolicies } from '../../domain/policies.js';
import { adminsWorkspace } from '../../domain/user-access.js';
import type { DashboardEnv } from '../env.js';
import { type FormProblem, readForm } from '../forms.js';
import { page } from '../pages.js';
import {
  formValuesOf,
  type PolicyFormValues,
  policiesForm,
  policiesOf,
  policyProblemOf,
  valuesOfPolicies,
} from '../views/policies-form.js';
import { policiesSummary } from '../views/policies-summary.js';
import { noticeOf, refusalOf, workspacesPath } from '../views/workspaces-format.js';

const NOTICES = { saved: 'Policies saved.' } as const;

const policiesPath = (workspaceId: string) => `${workspacesPath(workspaceId)}/policies`;

function policiesPage(
  c: Context<DashboardEnv>,
  form?: { values: PolicyFormValues; problem: FormProblem },
  status: ContentfulStatusCode = 200,
) {
  const workspace = c.var.workspace;
  const body = adminsWorkspace(c.var.signedIn.user, workspace.workspaceId)
    ? policiesForm(
        c,
        policiesPath(workspace.workspaceId),
        form?.values ?? valuesOfPolicies(workspace.policies),
        form?.problem,
      )
    : policiesSummary(workspace.policies);
  return page(
    c,
    { title: 'Policies', body, ...(status === 200 && { notice: noticeOf(c.req.query('done'), NOTICES) }) },
    status,
  );
}

/**
 * A workspace's publishing policies: every facet of the admin CLI's set-policy, checked by the
 * same rule (the admin use case). The guard has answered for workspaces the user may not see and
 * for POSTs by those who do not administer it.
 */
export function registerPolicyRoutes(app: Hono<DashboardEnv>): void {
  app.get('/workspaces/:workspaceId/policies', (c) => policiesPage(c));

  app.post('/workspaces/:workspaceId/policies', async (c) => {
    const values = formValuesOf(await readForm(c));
    let policies: WorkspacePolicies | undefined;
    try {
      policies = policiesOf(values);
      await c.var.deps.admin.setPolicies(
        c.var.signedIn.tenant.tenantId,
        c.var.workspace.workspaceId,
        policies,
      );
      return c.redirect(`${policiesPath(c.var.workspace.workspaceId)}?done=saved`, 303);
    } catch (error) {
      if (error instanceof InvalidRequestError) {
        return policiesPage(c, { values, problem: policyProblemOf(error, policies) }, 422);
      }
      const { problem, status } = refusalOf(error);
      return policiesPage(c, { values, problem }, status);
    }
  });
}
