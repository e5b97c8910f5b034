import { type AgentChange, type AgentRequest, planAgent, planAgentChange } from '../domain/agent-rules.js';
import { apiKeyHint, generateApiKey, hashApiKey } from '../domain/api-keys.js';
import { ConflictError, InvalidRequestError, NotFoundError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { redirectEntryProblems } from '../domain/oauth-redirect.js';
import { PLATFORMS, type Platform } from '../domain/platforms.js';
import type { WorkspacePolicies } from '../domain/policies.js';
import { applyPolicyChange, type PolicyChange, validatedPolicies } from '../domain/policy-validation.js';
import type { PlanTier } from '../domain/rate-limit-policy.js';
import type {
  Account,
  Actor,
  Agent,
  ApiKeyRecord,
  PlanStatus,
  Tenant,
  Workspace,
} from '../domain/tenancy.js';
import { SANDBOX_HANDLES } from '../networks/definitions.js';
import type { Clock } from '../ports/clock.js';
import type { TenancyStore } from '../ports/tenancy-store.js';

export interface AdminDeps {
  tenancy: TenancyStore;
  clock: Clock;
}

export interface IssuedApiKey {
  record: ApiKeyRecord;
  /** The only time the plaintext exists outside the caller's hands. */
  plaintext: string;
}

export interface BootstrapResult {
  tenantId: string;
  workspaceId: string;
  agentId: string;
  apiKey: string;
  accounts: Record<Platform, string>;
}

/** What a key list shows: never the hash authentication looks keys up by. */
export type ApiKeyView = Omit<ApiKeyRecord, 'keyHash'>;

export const MAX_WORKSPACE_NAME_LENGTH = 100;

/** A workspace's name, trimmed; InvalidRequestError (field `name`) when empty or too long. */
function workspaceName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '')
    throw new InvalidRequestError('A workspace needs a name.', { name: ['Give it a name.'] });
  if (trimmed.length > MAX_WORKSPACE_NAME_LENGTH) {
    throw new InvalidRequestError(`A workspace name has at most ${MAX_WORKSPACE_NAME_LENGTH} characters.`, {
      name: [`At most ${MAX_WORKSPACE_NAME_LENGTH} characters.`],
    });
  }
  return trimmed;
}

/** How many redirect URIs one tenant or workspace may list. */
export const MAX_REDIRECT_URIS = 20;

/**
 * The operator's use cases: tenants, workspaces, agents, keys, sandbox accounts, plans. The admin
 * CLI and the local host's first-start seed call these; the dashboard will too.
 */
export function makeAdmin({ tenancy, clock }: AdminDeps) {
  const now = () => new Date(clock.now()).toISOString();

  const requireTenant = async (tenantId: string): Promise<Tenant> => {
    const tenant = await tenancy.getTenant(tenantId);
    if (!tenant) throw new NotFoundError(`No tenant ${tenantId}.`);
    return tenant;
  };

  const requireWorkspace = async (tenantId: string, workspaceId: string): Promise<Workspace> => {
    const workspace = await tenancy.getWorkspace(tenantId, workspaceId);
    if (!workspace) throw new NotFoundError(`No workspace ${workspaceId} in tenant ${tenantId}.`);
    return workspace;
  };

  /** A live (not deleted) agent of the tenant, or NotFoundError. */
  const requireAgent = async (tenantId: string, agentId: string): Promise<Agent> => {
    const agent = await tenancy.getAgent(tenantId, agentId);
    if (!agent || agent.deletedAt) throw new NotFoundError(`No agent ${agentId} in tenant ${tenantId}.`);
    return agent;
  };

  const requireWorkspacesOf = async (tenantId: string, scope: Agent['scope']): Promise<void> => {
    if (scope.kind !== 'selected') return;
    for (const workspaceId of scope.workspaceIds) await requireWorkspace(tenantId, workspaceId);
  };

  const admin = {
    async createTenant(input: {
      name: string;
      planTier?: PlanTier;
      planStatus?: PlanStatus;
    }): Promise<Tenant> {
      const tenant: Tenant = {
        tenantId: newId('tenant', clock.now()),
        name: input.name,
        planTier: input.planTier ?? 'free',
        planStatus: input.planStatus ?? 'active',
        createdAt: now(),
      };
      await tenancy.putTenant(tenant);
      return tenant;
    },

    async createWorkspace(input: { tenantId: string; name: string }): Promise<Workspace> {
      const name = workspaceName(input.name);
      await requireTenant(input.tenantId);
      const workspace: Workspace = {
        workspaceId: newId('workspace', clock.now()),
        tenantId: input.tenantId,
        name,
        createdAt: now(),
      };
      await tenancy.putWorkspace(workspace);
      return workspace;
    },

    /** Applies the interface's agent rules (planAgent), then checks every named workspace is the tenant's. */
    async createAgent(actor: Actor, input: { tenantId: string } & AgentRequest): Promise<Agent> {
      await requireTenant(input.tenantId);
      const plan = planAgent(actor, input);
      await requireWorkspacesOf(input.tenantId, plan.scope);
      const agent: Agent = {
        agentId: newId('agent', clock.now()),
        tenantId: input.tenantId,
        name: plan.name,
        scope: plan.scope,
        permissions: plan.permissions,
        ...(plan.lockedWorkspaceId && { lockedWorkspaceId: plan.lockedWorkspaceId }),
        createdAt: now(),
      };
      await tenancy.putAgent(agent);
      return agent;
    },

    async deleteAgent(tenantId: string, agentId: string): Promise<Agent> {
      const agent = await tenancy.getAgent(tenantId, agentId);
      if (!agent) throw new NotFoundError(`No agent ${agentId} in tenant ${tenantId}.`);
      if (agent.deletedAt) throw new ConflictError(`Agent ${agentId} is already deleted.`);
      const deleted = { ...agent, deletedAt: now() };
      await tenancy.putAgent(deleted);
      return deleted;
    },

    /** Every workspace of the tenant, oldest first. */
    async listWorkspaces(tenantId: string): Promise<Workspace[]> {
      const all: Workspace[] = [];
      let cursor: string | undefined;
      do {
        const page = await tenancy.listWorkspaces(tenantId, { limit: 100, ...(cursor && { cursor }) });
        all.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return all;
    },

    async renameWorkspace(input: {
      tenantId: string;
      workspaceId: string;
      name: string;
    }): Promise<Workspace> {
      const name = workspaceName(input.name);
      return tenancy.renameWorkspace(input.tenantId, input.workspaceId, name);
    },

    /**
     * Which networks' metrics the workspace collects (docs/metrics.md "The setting and its cost"):
     * the dashboard's form names them all, so the list replaces the setting; 400 names an unknown one.
     */
    async setMetricsCollection(input: {
      tenantId: string;
      workspaceId: string;
      platforms: readonly string[];
    }): Promise<Workspace> {
      const unknown = input.platforms.filter(
        (platform) => !(PLATFORMS as readonly string[]).includes(platform),
      );
      if (unknown.length > 0)
        throw new InvalidRequestError(`Unknown network ${unknown.join(', ')}.`, {
          platforms: [`Not a network: ${unknown.join(', ')}.`],
        });
      const platforms = PLATFORMS.filter((platform) => input.platforms.includes(platform));
      return tenancy.setMetricsCollection(input.tenantId, input.workspaceId, { platforms });
    },

    /** The live tenant-level agents (not locked to a workspace). */
    async listAgents(tenantId: string): Promise<Agent[]> {
      const agents = await tenancy.listAgents(tenantId);
      return agents.filter((agent) => !agent.deletedAt && !agent.lockedWorkspaceId);
    },

    /** The live agents locked to one workspace. */
    async listAgentsOfWorkspace(tenantId: string, workspaceId: string): Promise<Agent[]> {
      const agents = await tenancy.listAgents(tenantId);
      return agents.filter((agent) => !agent.deletedAt && agent.lockedWorkspaceId === workspaceId);
    },

    /** A live agent, or NotFoundError. */
    getAgent: requireAgent,

    /** Edits name, permissions and (tenant-level only) scope under the agent rules (planAgentChange). */
    async updateAgent(
      actor: Actor,
      input: { tenantId: string; agentId: string; change: AgentChange },
    ): Promise<Agent> {
      const agent = await requireAgent(input.tenantId, input.agentId);
      const updated = planAgentChange(actor, agent, input.change);
      await requireWorkspacesOf(input.tenantId, updated.scope);
      await tenancy.putAgent(updated);
      return updated;
    },

    /** The agent's keys, revoked ones included, oldest first; never their hashes. */
    async listApiKeys(tenantId: string, agentId: string): Promise<ApiKeyView[]> {
      const records = await tenancy.listApiKeys(tenantId, agentId);
      return records.map(({ keyHash: _hash, ...view }) => view);
    },

    async createApiKey(input: { tenantId: string; agentId: string }): Promise<IssuedApiKey> {
      await requireAgent(input.tenantId, input.agentId);
      const plaintext = generateApiKey();
      const record: ApiKeyRecord = {
        keyId: newId('apiKey', clock.now()),
        tenantId: input.tenantId,
        agentId: input.agentId,
        keyHash: hashApiKey(plaintext),
        hint: apiKeyHint(plaintext),
        createdAt: now(),
      };
      await tenancy.putApiKey(record);
      return { record, plaintext };
    },

    /** With `agentId`, only a key of that agent (NotFoundError otherwise). */
    async revokeApiKey(input: { tenantId: string; keyId: string; agentId?: string }): Promise<ApiKeyRecord> {
      if (input.agentId) {
        const keys = await tenancy.listApiKeys(input.tenantId, input.agentId);
        if (!keys.some((key) => key.keyId === input.keyId)) {
          throw new NotFoundError(`No API key ${input.keyId} of agent ${input.agentId}.`);
        }
      }
      return tenancy.revokeApiKey(input.tenantId, input.keyId, now());
    },

    /**
     * Changes a workspace's policies (the admin CLI's set-policy): the change is applied over the
     * stored policies and the result checked as a whole by the rule the API applies
     * (validatedPolicies), so a member stored before the rule existed cannot slip through.
     */
    async changePolicies(tenantId: string, workspaceId: string, change: PolicyChange): Promise<Workspace> {
      const workspace = await requireWorkspace(tenantId, workspaceId);
      const policies = validatedPolicies(applyPolicyChange(workspace.policies, change));
      return tenancy.setWorkspacePolicies(tenantId, workspaceId, policies);
    },

    /** Replaces every policy of the workspace (the dashboard's form states them all). */
    setPolicies: (tenantId: string, workspaceId: string, policies: WorkspacePolicies): Promise<Workspace> =>
      admin.changePolicies(tenantId, workspaceId, { set: policies, clear: true }),

    async createSandboxAccount(input: {
      tenantId: string;
      workspaceId: string;
      platform: Platform;
      handle?: string;
      displayName?: string;
    }): Promise<Account> {
      await requireWorkspace(input.tenantId, input.workspaceId);
      if (!(PLATFORMS as readonly string[]).includes(input.platform)) {
        throw new InvalidRequestError(`Unknown platform ${input.platform}.`);
      }
      const at = now();
      const account: Account = {
        accountId: newId('account', clock.now()),
        tenantId: input.tenantId,
        workspaceId: input.workspaceId,
        platform: input.platform,
        handle: input.handle ?? SANDBOX_HANDLES[input.platform],
        displayName: input.displayName ?? `Sandbox ${input.platform}`,
        status: 'connected',
        sandbox: true,
        connectedAt: at,
        createdAt: at,
      };
      await tenancy.putAccount(account);
      return account;
    },

    setPlan: (tenantId: string, change: { planStatus?: PlanStatus; planTier?: PlanTier }) =>
      tenancy.setPlan(tenantId, change),

    /**
     * Replaces the redirect URIs a connect may send the person back to, for the whole tenant or for
     * one workspace (docs/networks.md "Redirect URIs"); an empty list removes them. Every entry is
     * checked (HTTPS or loopback HTTP, no credentials, query or fragment); 400 names each bad one.
     */
    async setRedirectUris(input: {
      tenantId: string;
      workspaceId?: string;
      uris: readonly string[];
    }): Promise<{ tenantId: string; workspaceId?: string; oauthRedirectUris: string[] }> {
      const uris = [...new Set(input.uris)];
      if (uris.length > MAX_REDIRECT_URIS)
        throw new InvalidRequestError(`At most ${MAX_REDIRECT_URIS} redirect URIs.`, {
          uris: [`At most ${MAX_REDIRECT_URIS}.`],
        });
      const refused = uris
        .map((uri, index) => ({ uri, index, problems: redirectEntryProblems(uri) }))
        .filter(({ problems }) => problems.length > 0);
      if (refused.length > 0) {
        throw new InvalidRequestError(
          `Not allowed as redirect URIs: ${refused.map(({ uri, problems }) => `${uri} (${problems.join(' ')})`).join('; ')}`,
          Object.fromEntries(refused.map(({ index, problems }) => [`uris[${index}]`, problems])),
        );
      }
      await tenancy.setOAuthRedirectUris(input.tenantId, input.workspaceId, uris);
      return {
        tenantId: input.tenantId,
        ...(input.workspaceId && { workspaceId: input.workspaceId }),
        oauthRedirectUris: uris,
      };
    },

    /** A whole working tenant: workspace, one sandbox account per platform, an agent and its key. */
    async bootstrap(input: { name: string; planTier?: PlanTier }): Promise<BootstrapResult> {
      const tenant = await admin.createTenant({
        name: input.name,
        ...(input.planTier && { planTier: input.planTier }),
      });
      const workspace = await admin.createWorkspace({
        tenantId: tenant.tenantId,
        name: `${input.name} workspace`,
      });
      const accounts = {} as Record<Platform, string>;
      for (const platform of PLATFORMS) {
        const account = await admin.createSandboxAccount({
          tenantId: tenant.tenantId,
          workspaceId: workspace.workspaceId,
          platform,
        });
        accounts[platform] = account.accountId;
      }
      const agent = await admin.createAgent(
        { role: 'owner' },
        { tenantId: tenant.tenantId, name: `${input.name} agent`, fromWorkspaceId: workspace.workspaceId },
      );
      const key = await admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });
      return {
        tenantId: tenant.tenantId,
        workspaceId: workspace.workspaceId,
        agentId: agent.agentId,
        apiKey: key.plaintext,
        accounts,
      };
    },
  };
  return admin;
}

export type Admin = ReturnType<typeof makeAdmin>;
