import type { AgentRequest } from '../../shared/domain/agent-rules.js';
import { PLATFORM_NAMES, PLATFORMS } from '../../shared/domain/platforms.js';
import type { WorkspacePolicies } from '../../shared/domain/policies.js';
import { describeWindow } from '../../shared/domain/policy-check.js';
import type { Agent, ApiKeyRecord } from '../../shared/domain/tenancy.js';
import type { Admin } from '../../shared/services/admin.js';
import type { IssuedLink } from '../../shared/services/users/dashboard-auth.js';
import { welcomePath } from '../../shared/services/users/links.js';
import type { UserAdmin } from '../../shared/services/users/user-admin.js';
import { UsageError } from './errors.js';
import {
  type CommandOption,
  checkId,
  email,
  invitableRole,
  list,
  optionalString,
  POLICY_OPTION_NAMES,
  permissions,
  planStatus,
  planTier,
  platform,
  policiesUsageError,
  policyChange,
  requiredId,
  requiredString,
  type Values,
  validPolicies,
} from './options.js';
import type { Output } from './output.js';

/** The dashboard's people, as the CLI reaches them. */
export interface People {
  userAdmin: UserAdmin;
  /** The target's dashboard address, when it tells it: one-time links are printed under it. */
  dashboardUrl?: string;
}

export type Run = (admin: Admin, out: Output, people: People) => Promise<void>;

export interface Command {
  name: string;
  summary: string;
  /** Arguments, as shown in the usage text. */
  synopsis: string;
  options: readonly CommandOption[];
  /** Reads the arguments before any target is resolved, so a usage error never needs a running host. */
  prepare(values: Values): Run;
}

const KEY_WARNING = 'Store this key now: it is shown only once and cannot be shown again.';
const LINK_WARNING = 'Give this link to that person now: it works once and is shown only once.';

/** A one-time link as the CLI prints it: the whole URL when the target tells its address, else the path. */
function linkFacts(link: IssuedLink, dashboardUrl: string | undefined) {
  const path = welcomePath(link.token);
  return {
    userId: link.user.userId,
    email: link.user.email,
    role: link.user.role,
    setPasswordLink: dashboardUrl ? `${dashboardUrl.replace(/\/dashboard$/, '')}${path}` : path,
    expiresAt: link.expiresAt,
  };
}

function linkLines(facts: ReturnType<typeof linkFacts>): string[] {
  const relative = facts.setPasswordLink.startsWith('/');
  return [
    `Set-password link for ${facts.email} (one use, until ${facts.expiresAt}):`,
    `  ${facts.setPasswordLink}`,
    ...(relative ? ["  (prefix it with the service's public address, e.g. https://api.example.com)"] : []),
    LINK_WARNING,
  ];
}

/** The stored record minus its hash: the hash is what authentication looks up, so it stays out of logs. */
function keyView({ keyHash: _hash, ...rest }: ApiKeyRecord): Omit<ApiKeyRecord, 'keyHash'> {
  return rest;
}

function describeScope(agent: Agent): string {
  if (agent.scope.kind === 'all') return 'all workspaces of the tenant';
  const workspaces = agent.scope.workspaceIds.join(', ');
  return agent.lockedWorkspaceId ? `locked to workspace ${workspaces}` : `workspaces ${workspaces}`;
}

/** --workspace (locked), --workspaces (tenant-level, selected) or --all: exactly one. */
function agentPlacement(values: Values): Pick<AgentRequest, 'fromWorkspaceId' | 'scope'> {
  const given = (['workspace', 'workspaces', 'all'] as const).filter(
    (option) => values[option] !== undefined,
  );
  if (given.length !== 1) {
    throw new UsageError('create-agent takes exactly one of --workspace, --workspaces or --all.');
  }
  if (values.all) return { scope: { kind: 'all' } };
  if (values.workspace !== undefined)
    return { fromWorkspaceId: requiredId(values, 'workspace', 'workspace') };
  const workspaceIds = list(requiredString(values, 'workspaces')).map((id) =>
    checkId('workspace', 'workspaces', id),
  );
  if (workspaceIds.length === 0) throw new UsageError('--workspaces names at least one workspace.');
  return { scope: { kind: 'selected', workspaceIds } };
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** One line per policy that is set, for a person. */
function policyLines(workspaceId: string, policies: WorkspacePolicies): string[] {
  const lines = [
    policies.requireApproval !== undefined && `  require approval   ${yesNo(policies.requireApproval)}`,
    policies.blockedTerms && `  blocked terms      ${policies.blockedTerms.map((t) => `"${t}"`).join(', ')}`,
    policies.allowedPlatforms && `  allowed platforms  ${policies.allowedPlatforms.join(', ')}`,
    policies.postingWindow && `  posting window     ${describeWindow(policies.postingWindow)}`,
    policies.blackoutDates && `  blackout dates     ${policies.blackoutDates.join(', ')} (UTC)`,
    policies.requireAltText !== undefined && `  require alt text   ${yesNo(policies.requireAltText)}`,
  ].filter((line): line is string => typeof line === 'string');
  return lines.length === 0
    ? [`Workspace ${workspaceId} has no policies.`]
    : [`Workspace ${workspaceId} policies:`, ...lines];
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'bootstrap',
    summary:
      'A whole working tenant: workspace, one sandbox account per platform, an agent and its key; with --owner-email, its owner and their set-password link.',
    synopsis: '[--name N] [--plan free|pro|enterprise] [--owner-email E]',
    options: ['name', 'plan', 'owner-email'],
    prepare(values) {
      const name = optionalString(values, 'name') ?? 'Sandbox';
      const tier = planTier(values, 'plan');
      const ownerEmail = email(values, 'owner-email');
      return async (admin, out, people) => {
        // Before the tenant exists: a taken email must not leave an ownerless tenant behind.
        if (ownerEmail) await people.userAdmin.requireEmailFree(ownerEmail);
        const result = await admin.bootstrap({ name, ...(tier && { planTier: tier }) });
        const owner = ownerEmail
          ? linkFacts(
              await people.userAdmin.createOwner({ tenantId: result.tenantId, email: ownerEmail }),
              people.dashboardUrl,
            )
          : undefined;
        out.result({ ...result, ...(owner && { owner }) }, [
          `Created tenant ${result.tenantId} (${name}).`,
          `  workspace  ${result.workspaceId}`,
          `  agent      ${result.agentId} (locked to the workspace, every permission)`,
          ...Object.entries(result.accounts).map(([p, id]) => `  ${p.padEnd(10)} ${id} (sandbox)`),
          ...(owner ? [`  owner      ${owner.userId} (${owner.email})`] : []),
          '',
          `API key: ${result.apiKey}`,
          KEY_WARNING,
          ...(owner ? ['', ...linkLines(owner)] : []),
        ]);
      };
    },
  },
  {
    name: 'invite-user',
    summary:
      'A dashboard user of a tenant and their one-time set-password link (7 days); workspace admins and viewers need --workspaces.',
    synopsis: '--tenant ten_… --email E --role super_admin|workspace_admin|viewer [--workspaces wks_a,wks_b]',
    options: ['tenant', 'email', 'role', 'workspaces'],
    prepare(values) {
      const tenantId = requiredId(values, 'tenant', 'tenant');
      const address = email(values, 'email');
      if (!address) throw new UsageError('--email is required.');
      const role = invitableRole(values);
      const workspaceIds = list(optionalString(values, 'workspaces') ?? '').map((id) =>
        checkId('workspace', 'workspaces', id),
      );
      if (role === 'super_admin' && workspaceIds.length > 0) {
        throw new UsageError('A super_admin sees every workspace: leave out --workspaces.');
      }
      if (role !== 'super_admin' && workspaceIds.length === 0) {
        throw new UsageError(`A ${role} needs --workspaces: the workspaces they may see.`);
      }
      return async (_admin, out, people) => {
        const link = await people.userAdmin.inviteUser({ tenantId, email: address, role, workspaceIds });
        const facts = linkFacts(link, people.dashboardUrl);
        out.result({ tenantId, ...facts, workspaceIds: link.user.workspaceIds }, [
          `Invited ${facts.email} (${facts.userId}) to ${tenantId} as ${role}${
            workspaceIds.length > 0 ? ` of ${workspaceIds.join(', ')}` : ''
          }.`,
          ...linkLines(facts),
        ]);
      };
    },
  },
  {
    name: 'user-link',
    summary:
      "A new one-time set-password link (24 hours) for a dashboard user: a first link that expired, or a forgotten password (setting it ends the user's sessions).",
    synopsis: '--email E',
    options: ['email'],
    prepare(values) {
      const address = email(values, 'email');
      if (!address) throw new UsageError('--email is required.');
      return async (_admin, out, people) => {
        const link = await people.userAdmin.reissueLink({ email: address });
        const facts = linkFacts(link, people.dashboardUrl);
        out.result({ tenantId: link.user.tenantId, ...facts }, [
          `A new link for ${facts.email} (${facts.userId}) of ${link.user.tenantId}.`,
          ...linkLines(facts),
        ]);
      };
    },
  },
  {
    name: 'create-tenant',
    summary: 'A tenant, with no workspace yet.',
    synopsis: '--name N [--plan free|pro|enterprise]',
    options: ['name', 'plan'],
    prepare(values) {
      const name = requiredString(values, 'name');
      const tier = planTier(values, 'plan');
      return async (admin, out) => {
        const tenant = await admin.createTenant({ name, ...(tier && { planTier: tier }) });
        out.result(tenant, [
          `Created tenant ${tenant.tenantId} (${tenant.name}, plan ${tenant.planTier}, ${tenant.planStatus}).`,
        ]);
      };
    },
  },
  {
    name: 'create-workspace',
    summary: 'A workspace in a tenant.',
    synopsis: '--tenant ten_… --name N',
    options: ['tenant', 'name'],
    prepare(values) {
      const tenantId = requiredId(values, 'tenant', 'tenant');
      const name = requiredString(values, 'name');
      return async (admin, out) => {
        const workspace = await admin.createWorkspace({ tenantId, name });
        out.result(workspace, [
          `Created workspace ${workspace.workspaceId} (${workspace.name}) in ${tenantId}.`,
        ]);
      };
    },
  },
  {
    name: 'create-agent',
    summary: 'An agent: locked to one workspace, or tenant-level over selected workspaces or all of them.',
    synopsis:
      '--tenant ten_… --name N (--workspace wks_… | --workspaces wks_a,wks_b | --all) [--permissions p1,p2]',
    options: ['tenant', 'name', 'workspace', 'workspaces', 'all', 'permissions'],
    prepare(values) {
      const tenantId = requiredId(values, 'tenant', 'tenant');
      const name = requiredString(values, 'name');
      const placement = agentPlacement(values);
      const granted = permissions(values);
      return async (admin, out) => {
        // The CLI is the operator: only a super-admin may create an agent over all workspaces.
        const agent = await admin.createAgent(
          { role: 'super_admin' },
          { tenantId, name, ...placement, ...(granted && { permissions: granted }) },
        );
        out.result(agent, [
          `Created agent ${agent.agentId} (${agent.name}) in ${tenantId}: ${describeScope(agent)}.`,
          `  permissions: ${agent.permissions.join(', ')}`,
          `Give it a key: npm run admin -- create-key --tenant ${tenantId} --agent ${agent.agentId}`,
        ]);
      };
    },
  },
  {
    name: 'delete-agent',
    summary: 'Deletes an agent; its keys stop working within 60 seconds.',
    synopsis: '--tenant ten_… --agent agt_…',
    options: ['tenant', 'agent'],
    prepare(values) {
      const tenantId = requiredId(values, 'tenant', 'tenant');
      const agentId = requiredId(values, 'agent', 'agent');
      return async (admin, out) => {
        const agent = await admin.deleteAgent(tenantId, agentId);
        out.result(agent, [`Deleted agent ${agentId}; its keys stop working within 60 seconds.`]);
      };
    },
  },
  {
    name: 'create-key',
    summary: 'An API key for an agent; the plaintext is printed once.',
    synopsis: '--tenant ten_… --agent agt_…',
    options: ['tenant', 'agent'],
    prepare(values) {
      const tenantId = requiredId(values, 'tenant', 'tenant');
      const agentId = requiredId(values, 'agent', 'agent');
      return async (admin, out) => {
        const { record, plaintext } = await admin.createApiKey({ tenantId, agentId });
        out.result({ ...keyView(record), apiKey: plaintext }, [
          `Created key ${record.keyId} for agent ${agentId}.`,
          `API key: ${plaintext}`,
          KEY_WARNING,
        ]);
      };
    },
  },
  {
    name: 'revoke-key',
    summary: 'Revokes an API key; it stops working within 60 seconds.',
    synopsis: '--tenant ten_… --key key_…',
    options: ['tenant', 'key'],
    prepare(values) {
      const tenantId = requiredId(values, 'tenant', 'tenant');
      const keyId = requiredId(values, 'key', 'apiKey');
      return async (admin, out) => {
        const record = await admin.revokeApiKey({ tenantId, keyId });
        out.result(keyView(record), [
          `Revoked key ${keyId} (…${record.hint}); it stops working within 60 seconds.`,
        ]);
      };
    },
  },
  {
    name: 'create-sandbox-account',
    summary: 'A connected sandbox account: it publishes to the simulated network.',
    synopsis: `--tenant ten_… --workspace wks_… --platform ${PLATFORM_NAMES.join('|')} [--handle H] [--display-name D]`,
    options: ['tenant', 'workspace', 'platform', 'handle', 'display-name'],
    prepare(values) {
      const tenantId = requiredId(values, 'tenant', 'tenant');
      const workspaceId = requiredId(values, 'workspace', 'workspace');
      const network = platform(values);
      const handle = optionalString(values, 'handle');
      const displayName = optionalString(values, 'display-name');
      return async (admin, out) => {
        const account = await admin.createSandboxAccount({
          tenantId,
          workspaceId,
          platform: network,
          ...(handle !== undefined && { handle }),
          ...(displayName !== undefined && { displayName }),
        });
        out.result(account, [
          `Created sandbox ${account.platform} account ${account.accountId} (${account.handle}) in ${workspaceId}.`,
        ]);
      };
    },
  },
  {
    name: 'set-plan',
    summary: "Changes a tenant's plan status or tier; an inactive plan stops its keys within 60 seconds.",
    synopsis: '--tenant ten_… [--status active|inactive] [--tier free|pro|enterprise]',
    options: ['tenant', 'status', 'tier'],
    prepare(values) {
      const tenantId = requiredId(values, 'tenant', 'tenant');
      const status = planStatus(values);
      const tier = planTier(values, 'tier');
      if (status === undefined && tier === undefined) {
        throw new UsageError('set-plan needs --status or --tier (or both).');
      }
      return async (admin, out) => {
        const tenant = await admin.setPlan(tenantId, {
          ...(status && { planStatus: status }),
          ...(tier && { planTier: tier }),
        });
        out.result(tenant, [`Tenant ${tenantId}: plan ${tenant.planTier}, ${tenant.planStatus}.`]);
      };
    },
  },
  {
    name: 'set-policy',
    summary:
      "A workspace's publishing policies: each option given replaces its policy, --unset removes some, " +
      '--clear starts from none; the others are kept.',
    synopsis:
      '--tenant ten_… --workspace wks_… [--require-approval true|false] [--blocked-terms a,b] ' +
      `[--allowed-platforms ${PLATFORMS.slice(0, 2).join(',')}] [--posting-window 09:00-17:00[@mon-fri|@mon,tue,…]] ` +
      '[--blackout-dates 2026-12-24,2026-12-25] [--require-alt-text true|false] ' +
      '[--unset blocked-terms,posting-window,…] [--clear]',
    options: ['tenant', 'workspace', ...POLICY_OPTION_NAMES, 'unset', 'clear'],
    prepare(values) {
      const tenantId = requiredId(values, 'tenant', 'tenant');
      const workspaceId = requiredId(values, 'workspace', 'workspace');
      const change = policyChange(values);
      if (Object.keys(change.set).length === 0 && change.unset.length === 0 && !change.clear) {
        throw new UsageError('set-policy needs a policy option, --unset or --clear.');
      }
      // Checked here too, so that a bad value is bad usage before any host is looked for.
      validPolicies(change.set, 'policy options');
      return async (admin, out) => {
        // The stored members are checked again: one stored before the schema existed must not pass.
        const saved = await admin.changePolicies(tenantId, workspaceId, change).catch((error: unknown) => {
          throw policiesUsageError(error, `policies for ${workspaceId}`);
        });
        const result = saved.policies ?? {};
        out.result(result, policyLines(workspaceId, result));
      };
    },
  },
  {
    name: 'set-redirect-uris',
    summary:
      "Where connecting an account may send the person back (a connect's redirectUri): for the whole tenant, " +
      'or one workspace with --workspace. Replaces the list; --clear removes it.',
    synopsis: '--tenant ten_… [--workspace wks_…] (--uris https://app.example.com/done,… | --clear)',
    options: ['tenant', 'workspace', 'uris', 'clear'],
    prepare(values) {
      const tenantId = requiredId(values, 'tenant', 'tenant');
      const workspaceId =
        values.workspace === undefined ? undefined : requiredId(values, 'workspace', 'workspace');
      if ((values.uris === undefined) === (values.clear !== true)) {
        throw new UsageError('set-redirect-uris takes exactly one of --uris or --clear.');
      }
      const uris = values.clear ? [] : list(requiredString(values, 'uris'));
      if (!values.clear && uris.length === 0) throw new UsageError('--uris names at least one URI.');
      return async (admin, out) => {
        const saved = await admin.setRedirectUris({ tenantId, ...(workspaceId && { workspaceId }), uris });
        const whose = workspaceId ? `Workspace ${workspaceId}` : `Tenant ${tenantId}`;
        out.result(
          saved,
          saved.oauthRedirectUris.length === 0
            ? [`${whose} allows no redirect URIs of its own.`]
            : [`${whose} allows these redirect URIs:`, ...saved.oauthRedirectUris.map((uri) => `  ${uri}`)],
        );
      };
    },
  },
];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}
