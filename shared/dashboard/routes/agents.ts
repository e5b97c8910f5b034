import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { NotFoundError } from '../../domain/errors.js';
import type { Actor, Agent } from '../../domain/tenancy.js';
import { actorFor, isTenantAdmin } from '../../domain/user-access.js';
import type { DashboardEnv } from '../env.js';
import { type FormProblem, readForm } from '../forms.js';
import { forbiddenPage, notFoundPage, page } from '../pages.js';
import { agentDetailBody } from '../views/agents-detail.js';
import {
  type AgentFormValues,
  formValuesOf,
  NEW_AGENT_VALUES,
  permissionsOf,
  type ScopeChoices,
  scopeOf,
  valuesOfAgent,
} from '../views/agents-form.js';
import { agentsPath } from '../views/agents-format.js';
import { agentsListBody } from '../views/agents-list.js';
import { noticeOf, refusalOf } from '../views/workspaces-format.js';

const LIST_NOTICES = { deleted: 'Agent deleted.' } as const;
const DETAIL_NOTICES = {
  created: 'Agent created.',
  saved: 'Agent saved.',
  revoked: 'API key revoked.',
} as const;

/**
 * Where an agents page is: a workspace's (its locked agents) or the tenant's (tenant-level ones).
 * `actor` is who acts under the agent rules; absent, the user only reads.
 */
interface Place {
  tenantId: string;
  workspaceId?: string;
  actor?: Actor;
  scopes?: ScopeChoices;
}

type Handler = (c: Context<DashboardEnv>, place: Place) => Promise<Response>;

/** A workspace's agents page: the guard has already checked the workspace and any POST. */
const inWorkspace =
  (handler: Handler) =>
  (c: Context<DashboardEnv>): Promise<Response> => {
    const { user, tenant } = c.var.signedIn;
    const workspaceId = c.var.workspace.workspaceId;
    const actor = actorFor(user, workspaceId);
    return handler(c, { tenantId: tenant.tenantId, workspaceId, ...(actor && { actor }) });
  };

/** A tenant-level agents page: owners and super-admins only. */
const inTenant =
  (handler: Handler) =>
  async (c: Context<DashboardEnv>): Promise<Response> => {
    const { user, tenant } = c.var.signedIn;
    const actor = actorFor(user);
    if (!isTenantAdmin(user) || !actor) return forbiddenPage(c, 'manage tenant-level agents');
    const workspaces = await c.var.deps.admin.listWorkspaces(tenant.tenantId);
    return handler(c, {
      tenantId: tenant.tenantId,
      actor,
      scopes: { workspaces, allowAll: user.role === 'super_admin' },
    });
  };

/**
 * The agent named in the path, only where it belongs: a locked agent under its own workspace, a
 * tenant-level one under /agents. Anything else is not found, so no page tells of another's agent.
 */
async function agentAt(c: Context<DashboardEnv>, place: Place): Promise<Agent | undefined> {
  try {
    const agent = await c.var.deps.admin.getAgent(place.tenantId, c.req.param('agentId') ?? '');
    return agent.lockedWorkspaceId === place.workspaceId ? agent : undefined;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

async function listPage(
  c: Context<DashboardEnv>,
  place: Place,
  create?: { values: AgentFormValues; problem?: FormProblem },
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const { admin } = c.var.deps;
  const agents = place.workspaceId
    ? await admin.listAgentsOfWorkspace(place.tenantId, place.workspaceId)
    : await admin.listAgents(place.tenantId);
  const body = agentsListBody(c, {
    agents,
    ...(place.workspaceId && { workspaceId: place.workspaceId }),
    ...(place.scopes && { scopes: place.scopes }),
    ...(place.actor && { create: create ?? { values: NEW_AGENT_VALUES } }),
  });
  return page(
    c,
    {
      title: place.workspaceId ? 'Agents and keys' : 'Tenant agents',
      body,
      ...(status === 200 && { notice: noticeOf(c.req.query('done'), LIST_NOTICES) }),
    },
    status,
  );
}

async function detailPage(
  c: Context<DashboardEnv>,
  place: Place,
  agent: Agent,
  extra: {
    edit?: { values: AgentFormValues; problem?: FormProblem };
    newKey?: string;
    notice?: string;
    alert?: string;
  } = {},
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const keys = await c.var.deps.admin.listApiKeys(place.tenantId, agent.agentId);
  const body = agentDetailBody(c, {
    agent,
    keys,
    ...(place.workspaceId && { workspaceId: place.workspaceId }),
    ...(place.scopes && { scopes: place.scopes }),
    ...(place.workspaceId && { known: [c.var.workspace] }),
    ...(place.actor && { edit: extra.edit ?? { values: valuesOfAgent(agent) } }),
    ...(extra.newKey && { newKey: extra.newKey }),
  });
  const notice = extra.notice ?? (status === 200 ? noticeOf(c.req.query('done'), DETAIL_NOTICES) : undefined);
  return page(
    c,
    {
      title: `Agent ${agent.name}`,
      body,
      ...(notice && { notice }),
      ...(extra.alert && { alert: extra.alert }),
    },
    status,
  );
}

const showList: Handler = (c, place) => listPage(c, place);

const createAgent: Handler = async (c, place) => {
  if (!place.actor) return forbiddenPage(c, 'create agents');
  const values = formValuesOf(await readForm(c));
  try {
    const agent = await c.var.deps.admin.createAgent(place.actor, {
      tenantId: place.tenantId,
      name: values.name,
      permissions: permissionsOf(values),
      ...(place.workspaceId ? { fromWorkspaceId: place.workspaceId } : { scope: scopeOf(values) }),
    });
    return c.redirect(`${agentsPath(place.workspaceId, agent.agentId)}?done=created`, 303);
  } catch (error) {
    const { problem, status } = refusalOf(error);
    return listPage(c, place, { values, problem }, status);
  }
};

/** Runs a handler on the agent in the path; 404 where it does not belong. */
const withAgent =
  (handler: (c: Context<DashboardEnv>, place: Place, agent: Agent) => Promise<Response>): Handler =>
  async (c, place) => {
    const agent = await agentAt(c, place);
    if (!agent) return notFoundPage(c);
    return handler(c, place, agent);
  };

/** Every POST on an agent needs someone who may act on it. */
const actingOn = (
  handler: (c: Context<DashboardEnv>, place: Place & { actor: Actor }, agent: Agent) => Promise<Response>,
) =>
  withAgent((c, place, agent) => {
    const { actor } = place;
    if (!actor) return Promise.resolve(forbiddenPage(c, 'change agents'));
    return handler(c, { ...place, actor }, agent);
  });

const showAgent = withAgent((c, place, agent) => detailPage(c, place, agent));

const saveAgent = actingOn(async (c, place, agent) => {
  const values = formValuesOf(await readForm(c));
  try {
    await c.var.deps.admin.updateAgent(place.actor, {
      tenantId: place.tenantId,
      agentId: agent.agentId,
      change: {
        name: values.name,
        permissions: permissionsOf(values),
        ...(!place.workspaceId && { scope: scopeOf(values) }),
      },
    });
    return c.redirect(`${agentsPath(place.workspaceId, agent.agentId)}?done=saved`, 303);
  } catch (error) {
    const { problem, status } = refusalOf(error);
    return detailPage(c, place, agent, { edit: { values, problem } }, status);
  }
});

/** The one answer that holds the key's plaintext: it is not stored, so it cannot be shown again. */
const createKey = actingOn(async (c, place, agent) => {
  const issued = await c.var.deps.admin.createApiKey({ tenantId: place.tenantId, agentId: agent.agentId });
  return detailPage(c, place, agent, { newKey: issued.plaintext, notice: 'API key created.' });
});

const revokeKey = actingOn(async (c, place, agent) => {
  try {
    await c.var.deps.admin.revokeApiKey({
      tenantId: place.tenantId,
      agentId: agent.agentId,
      keyId: c.req.param('keyId') ?? '',
    });
    return c.redirect(`${agentsPath(place.workspaceId, agent.agentId)}?done=revoked`, 303);
  } catch (error) {
    const { problem, status } = refusalOf(error);
    return detailPage(c, place, agent, { alert: problem.message }, status);
  }
});

const deleteAgent = actingOn(async (c, place, agent) => {
  await c.var.deps.admin.deleteAgent(place.tenantId, agent.agentId);
  return c.redirect(`${agentsPath(place.workspaceId)}?done=deleted`, 303);
});

/**
 * Agents and their API keys: a workspace's locked agents under /workspaces/:workspaceId/agents
 * (its admins change them, its viewers read them), the tenant-level agents under /agents (owners
 * and super-admins). Every change goes through the admin use cases and the agent rules.
 */
export function registerAgentRoutes(app: Hono<DashboardEnv>): void {
  const routes: Array<['get' | 'post', string, Handler]> = [
    ['get', '', showList],
    ['post', '', createAgent],
    ['get', '/:agentId', showAgent],
    ['post', '/:agentId', saveAgent],
    ['post', '/:agentId/keys', createKey],
    ['post', '/:agentId/keys/:keyId/revoke', revokeKey],
    ['post', '/:agentId/delete', deleteAgent],
  ];
  for (const [method, path, handler] of routes) {
    app[method](`/workspaces/:workspaceId/agents${path}`, inWorkspace(handler));
    app[method](`/agents${path}`, inTenant(handler));
  }
}
