import { InvalidRequestError } from '../../domain/errors.js';
import { isPermission, PERMISSIONS, type Permission } from '../../domain/permissions.js';
import type { Agent, AgentScope, Workspace } from '../../domain/tenancy.js';
import { checkboxGroup, type FieldErrors, listOf, selectField, textField } from '../forms.js';
import { empty, type Html, html } from '../html.js';

/** What an agent form holds, as typed: shown again after a refusal. */
export interface AgentFormValues {
  name: string;
  permissions: string[];
  /** Tenant-level only: `selected` or `all`. */
  scope: string;
  workspaceIds: string[];
}

export function formValuesOf(form: Record<string, string | string[]>): AgentFormValues {
  const text = (name: string) => {
    const value = form[name];
    return ((Array.isArray(value) ? value[0] : value) ?? '').trim();
  };
  return {
    name: text('name'),
    permissions: listOf(form, 'permissions'),
    scope: text('scope'),
    workspaceIds: listOf(form, 'workspaceIds'),
  };
}

export function valuesOfAgent(agent: Agent): AgentFormValues {
  return {
    name: agent.name,
    permissions: [...agent.permissions],
    scope: agent.scope.kind,
    workspaceIds: agent.scope.kind === 'selected' ? [...agent.scope.workspaceIds] : [],
  };
}

/** The permissions that only read: all a new agent's form ticks before the person chooses. */
export const READ_ONLY_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((permission) =>
  permission.endsWith(':read'),
);

/**
 * A new agent's form starts read-only: an agent's permissions are a security boundary, so every
 * permission that changes something is the person's explicit choice (least privilege).
 */
export const NEW_AGENT_VALUES: AgentFormValues = {
  name: '',
  permissions: [...READ_ONLY_PERMISSIONS],
  scope: 'selected',
  workspaceIds: [],
};

/** The ticked permissions; a forged value that names no permission is bad input. */
export function permissionsOf(values: AgentFormValues): Permission[] {
  const unknown = values.permissions.filter((name) => !isPermission(name));
  if (unknown.length > 0) {
    throw new InvalidRequestError('Unknown permission.', {
      permissions: [`Unknown: ${unknown.join(', ')}.`],
    });
  }
  return values.permissions.filter(isPermission);
}

/** The chosen scope of a tenant-level agent. */
export function scopeOf(values: AgentFormValues): AgentScope {
  if (values.scope === 'all') return { kind: 'all' };
  if (values.scope === 'selected')
    return { kind: 'selected', workspaceIds: [...new Set(values.workspaceIds)] };
  throw new InvalidRequestError('Choose a scope.', {
    scope: ['Choose selected workspaces or all workspaces.'],
  });
}

/** What a tenant-level form offers for the scope; absent on a workspace's agents. */
export interface ScopeChoices {
  workspaces: readonly Workspace[];
  /** Only a super-admin grants `all`; an agent that has it keeps the choice. */
  allowAll: boolean;
}

/** Name, permissions and, for a tenant-level agent, scope and workspaces. */
export function agentFields(
  values: AgentFormValues,
  scopes: ScopeChoices | undefined,
  errors?: FieldErrors,
): Html {
  const scopeFields = scopes
    ? html`${selectField({
        name: 'scope',
        label: 'Scope',
        choices: [
          { value: 'selected', label: 'Selected workspaces' },
          ...(scopes.allowAll || values.scope === 'all' ? [{ value: 'all', label: 'All workspaces' }] : []),
        ],
        value: values.scope,
        ...(errors && { errors }),
      })}${checkboxGroup({
        name: 'workspaceIds',
        legend: 'Workspaces',
        choices: scopes.workspaces.map((workspace) => ({
          value: workspace.workspaceId,
          label: workspace.name,
        })),
        checked: values.workspaceIds,
        ...(errors && { errors }),
      })}`
    : empty;
  return html`${textField({ name: 'name', label: 'Name', value: values.name, required: true, ...(errors && { errors }) })}${checkboxGroup(
    {
      name: 'permissions',
      legend: 'Permissions',
      choices: PERMISSIONS.map((permission) => ({
        value: permission,
        label: READ_ONLY_PERMISSIONS.includes(permission)
          ? `${permission} (read only)`
          : `${permission} (changes things)`,
      })),
      checked: values.permissions,
      ...(errors && { errors }),
    },
  )}${scopeFields}`;
}
