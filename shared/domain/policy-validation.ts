import { InvalidRequestError } from './errors.js';
import type { WorkspacePolicies } from './policies.js';
import { workspacePoliciesSchema } from './policy-schema.js';

/**
 * A change to a workspace's policies, as the admin CLI's set-policy and the dashboard make it:
 * members to set, members to remove, and whether to start from none (the dashboard's form states
 * every member, so it clears and sets).
 */
export interface PolicyChange {
  set: WorkspacePolicies;
  unset?: readonly (keyof WorkspacePolicies)[];
  clear?: boolean;
}

/** The stored policies after a change, before any check. */
export function applyPolicyChange(
  current: WorkspacePolicies | undefined,
  change: PolicyChange,
): WorkspacePolicies {
  const merged: WorkspacePolicies = { ...(change.clear ? {} : current), ...change.set };
  for (const member of change.unset ?? []) delete merged[member];
  return merged;
}

/**
 * The policies as the schema the API applies accepts them, or InvalidRequestError whose details
 * name each problem by its path in the policies, dot-separated (`postingWindow.end`,
 * `blackoutDates.1`), so each caller can say it in its own terms (a CLI option, a form field).
 */
export function validatedPolicies(policies: WorkspacePolicies): WorkspacePolicies {
  const result = workspacePoliciesSchema.safeParse(policies);
  if (result.success) return result.data;
  const details: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.') || 'policies';
    details[path] = [...(details[path] ?? []), issue.message];
  }
  const summary = Object.entries(details)
    .map(([path, messages]) => `${path}: ${messages.join(' ')}`)
    .join('; ');
  throw new InvalidRequestError(`Invalid policies: ${summary}`, details);
}
