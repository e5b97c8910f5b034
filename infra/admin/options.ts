import { parseArgs } from 'node:util';
import { InvalidRequestError } from '../../shared/domain/errors.js';
import { type IdKind, isIdOf } from '../../shared/domain/ids.js';
import { isPermission, PERMISSIONS, type Permission } from '../../shared/domain/permissions.js';
import {
  normalizePlatform,
  PLATFORM_ALIASES,
  PLATFORMS,
  type Platform,
} from '../../shared/domain/platforms.js';
import type { PostingWindow, WorkspacePolicies } from '../../shared/domain/policies.js';
import { DAY_NAMES } from '../../shared/domain/policy-check.js';
import { type PolicyChange, validatedPolicies } from '../../shared/domain/policy-validation.js';
import { PLAN_TIERS, type PlanTier } from '../../shared/domain/rate-limit-policy.js';
import type { PlanStatus } from '../../shared/domain/tenancy.js';
import { isEmail, normalizeEmail } from '../../shared/services/users/emails.js';
import { INVITABLE_ROLES, type InvitableRole } from '../../shared/services/users/invite-user.js';
import { UsageError } from './errors.js';

/** Accepted by every command: output form and target. */
export const GLOBAL_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'data-dir': { type: 'string' },
  stack: { type: 'string' },
  region: { type: 'string' },
} as const;

/**
 * Every command's options, parsed together: the command is only known after parsing (a global
 * option's value may precede it), so each command then rejects the options it does not take.
 */
export const COMMAND_OPTIONS = {
  name: { type: 'string' },
  plan: { type: 'string' },
  tenant: { type: 'string' },
  workspace: { type: 'string' },
  workspaces: { type: 'string' },
  all: { type: 'boolean' },
  permissions: { type: 'string' },
  agent: { type: 'string' },
  key: { type: 'string' },
  platform: { type: 'string' },
  handle: { type: 'string' },
  'display-name': { type: 'string' },
  status: { type: 'string' },
  tier: { type: 'string' },
  'require-approval': { type: 'string' },
  'blocked-terms': { type: 'string' },
  'allowed-platforms': { type: 'string' },
  'posting-window': { type: 'string' },
  'blackout-dates': { type: 'string' },
  'require-alt-text': { type: 'string' },
  clear: { type: 'boolean' },
  unset: { type: 'string' },
  uris: { type: 'string' },
  'owner-email': { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
} as const;

export type CommandOption = keyof typeof COMMAND_OPTIONS;
type StringOption = {
  [K in CommandOption]: (typeof COMMAND_OPTIONS)[K]['type'] extends 'string' ? K : never;
}[CommandOption];

export function parseCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: { ...GLOBAL_OPTIONS, ...COMMAND_OPTIONS },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // parseArgs reports unknown options and missing values as TypeErrors with ERR_PARSE_ARGS_* codes.
    if (error instanceof Error && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

export type Values = ReturnType<typeof parseCommandLine>['values'];

export function optionalString(values: Values, option: StringOption): string | undefined {
  const value = values[option];
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`--${option} needs a value.`);
  return value;
}

export function requiredString(values: Values, option: StringOption): string {
  const value = optionalString(values, option);
  if (value === undefined) throw new UsageError(`--${option} is required.`);
  return value;
}

const ID_EXAMPLES: Partial<Record<IdKind, string>> = {
  tenant: 'ten_…',
  workspace: 'wks_…',
  agent: 'agt_…',
  apiKey: 'key_…',
};

/** Catches a swapped or truncated id here, rather than as a puzzling "not found" from the store. */
export function checkId(kind: IdKind, option: string, value: string): string {
  if (!isIdOf(kind, value)) {
    throw new UsageError(`--${option} must be a ${kind} id (${ID_EXAMPLES[kind] ?? kind}); got "${value}".`);
  }
  return value;
}

export function requiredId(values: Values, option: StringOption, kind: IdKind): string {
  return checkId(kind, option, requiredString(values, option));
}

/** A comma-separated list, blanks and repeats dropped. */
export function list(value: string): string[] {
  return [...new Set(value.split(',').map((item) => item.trim()))].filter((item) => item !== '');
}

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${option} must be one of ${allowed.join(', ')}; got "${value}".`);
  }
  return value as T;
}

export function planTier(values: Values, option: 'plan' | 'tier'): PlanTier | undefined {
  const value = optionalString(values, option);
  return value === undefined ? undefined : oneOf(option, value, PLAN_TIERS);
}

const PLAN_STATUSES: readonly PlanStatus[] = ['active', 'inactive'];

export function planStatus(values: Values): PlanStatus | undefined {
  const value = optionalString(values, 'status');
  return value === undefined ? undefined : oneOf('status', value, PLAN_STATUSES);
}

function platformNamed(option: string, value: string): Platform {
  const normalized = normalizePlatform(value);
  if (!normalized) {
    const accepted = [...PLATFORMS, ...Object.keys(PLATFORM_ALIASES)].join(', ');
    throw new UsageError(`--${option} must be one of ${accepted}; got "${value}".`);
  }
  return normalized;
}

/** An email as the dashboard keys users by it (lower-case), or a usage error naming the option. */
export function email(values: Values, option: 'email' | 'owner-email'): string | undefined {
  const value = optionalString(values, option);
  if (value === undefined) return undefined;
  const normalized = normalizeEmail(value);
  if (!isEmail(normalized)) throw new UsageError(`--${option} must be an email address; got "${value}".`);
  return normalized;
}

export function invitableRole(values: Values): InvitableRole {
  return oneOf('role', requiredString(values, 'role'), INVITABLE_ROLES);
}

export function platform(values: Values): Platform {
  return platformNamed('platform', requiredString(values, 'platform'));
}

/** Absent: undefined, so the use case grants its default (every permission). */
export function permissions(values: Values): Permission[] | undefined {
  const value = values.permissions;
  if (value === undefined) return undefined;
  const names = list(value);
  if (names.length === 0) throw new UsageError('--permissions names at least one permission.');
  const unknown = names.filter((name) => !isPermission(name));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown permission ${unknown.join(', ')}. Known: ${PERMISSIONS.join(', ')}.`);
  }
  return names.filter(isPermission);
}

/** The set-policy options, each naming one member of WorkspacePolicies. */
export const POLICY_OPTIONS = {
  'require-approval': 'requireApproval',
  'blocked-terms': 'blockedTerms',
  'allowed-platforms': 'allowedPlatforms',
  'posting-window': 'postingWindow',
  'blackout-dates': 'blackoutDates',
  'require-alt-text': 'requireAltText',
} as const satisfies Record<string, keyof WorkspacePolicies>;

export type PolicyOption = keyof typeof POLICY_OPTIONS;
export const POLICY_OPTION_NAMES = Object.keys(POLICY_OPTIONS) as PolicyOption[];

/** What set-policy was told: the members to set, the members to remove, and whether to start empty. */
export interface CliPolicyChange extends PolicyChange {
  unset: (keyof WorkspacePolicies)[];
  clear: boolean;
}

function booleanValue(values: Values, option: 'require-approval' | 'require-alt-text'): boolean | undefined {
  const value = optionalString(values, option);
  return value === undefined ? undefined : oneOf(option, value, ['true', 'false'] as const) === 'true';
}

function nonEmptyList(values: Values, option: StringOption, what: string): string[] | undefined {
  const value = values[option];
  if (value === undefined) return undefined;
  const items = list(value);
  if (items.length === 0) throw new UsageError(`--${option} names at least one ${what}.`);
  return items;
}

const DAY_INDEX: ReadonlyMap<string, number> = new Map(
  ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].flatMap((day, index) => [
    [day, index],
    [day.slice(0, 3), index],
  ]),
);

function dayIndex(name: string): number {
  const index = DAY_INDEX.get(name.toLowerCase());
  if (index === undefined) {
    throw new UsageError(
      `--posting-window: unknown day "${name}"; use ${DAY_NAMES.join(', ')} or a range mon-fri.`,
    );
  }
  return index;
}

/** `mon,wed` or `mon-fri`; a range may wrap around the week (`fri-mon`). Sorted, each day once. */
function days(value: string): number[] {
  const found = new Set<number>();
  for (const part of list(value)) {
    const [first = '', last, ...rest] = part.split('-');
    if (rest.length > 0) throw new UsageError(`--posting-window: "${part}" is not a day or a range of days.`);
    const from = dayIndex(first.trim());
    const to = last === undefined ? from : dayIndex(last.trim());
    for (let day = from; ; day = (day + 1) % 7) {
      found.add(day);
      if (day === to) break;
    }
  }
  if (found.size === 0) throw new UsageError('--posting-window: name at least one day after @.');
  return [...found].sort((a, b) => a - b);
}

/**
 * `09:00-17:00`, optionally `@mon-fri` or `@mon,wed,fri`. Only the shape is read here; the times
 * themselves are checked by the policy schema, with the other members.
 */
function postingWindow(values: Values): PostingWindow | undefined {
  const value = optionalString(values, 'posting-window');
  if (value === undefined) return undefined;
  const match = /^\s*([^-@\s]+)\s*-\s*([^-@\s]+)\s*(?:@(.*))?$/.exec(value);
  if (!match) {
    throw new UsageError(
      `--posting-window must look like 09:00-17:00 or 22:00-02:00@fri,sat (UTC); got "${value}".`,
    );
  }
  const [, start = '', end = '', dayList] = match;
  return { start, end, ...(dayList !== undefined && { days: days(dayList) }) };
}

function unsetMembers(values: Values): (keyof WorkspacePolicies)[] {
  return (nonEmptyList(values, 'unset', 'policy option') ?? []).map((name) => {
    const option = name.replace(/^--/, '');
    if (!(POLICY_OPTION_NAMES as string[]).includes(option)) {
      throw new UsageError(
        `--unset takes policy options (${POLICY_OPTION_NAMES.join(', ')}); got "${name}".`,
      );
    }
    if (values[option as PolicyOption] !== undefined) {
      throw new UsageError(`--${option} is both set and unset.`);
    }
    return POLICY_OPTIONS[option as PolicyOption];
  });
}

/** The set-policy options as a change to apply over the stored policies. */
export function policyChange(values: Values): CliPolicyChange {
  const requireApproval = booleanValue(values, 'require-approval');
  const blockedTerms = nonEmptyList(values, 'blocked-terms', 'term');
  const allowedPlatforms = nonEmptyList(values, 'allowed-platforms', 'platform')?.map((name) =>
    platformNamed('allowed-platforms', name),
  );
  const window = postingWindow(values);
  const blackoutDates = nonEmptyList(values, 'blackout-dates', 'date')?.sort();
  const requireAltText = booleanValue(values, 'require-alt-text');
  const set: WorkspacePolicies = {
    ...(requireApproval !== undefined && { requireApproval }),
    ...(blockedTerms && { blockedTerms }),
    // x and twitter name one platform: keep it once.
    ...(allowedPlatforms && { allowedPlatforms: [...new Set(allowedPlatforms)] }),
    ...(window && { postingWindow: window }),
    ...(blackoutDates && { blackoutDates }),
    ...(requireAltText !== undefined && { requireAltText }),
  };
  return { set, unset: unsetMembers(values), clear: values.clear === true };
}

const OPTION_OF_MEMBER: ReadonlyMap<string, PolicyOption> = new Map(
  POLICY_OPTION_NAMES.map((option) => [POLICY_OPTIONS[option], option]),
);

/**
 * The policies checked by the rule the API and the dashboard use too (validatedPolicies); each
 * problem is named by the option that sets it (`--posting-window end: …`). `what` says whose
 * policies they are in the message.
 */
export function validPolicies(policies: WorkspacePolicies, what: string): WorkspacePolicies {
  try {
    return validatedPolicies(policies);
  } catch (error) {
    throw policiesUsageError(error, what);
  }
}

/** The rule's InvalidRequestError as bad usage, in the CLI's terms; anything else unchanged. */
export function policiesUsageError(error: unknown, what: string): unknown {
  if (!(error instanceof InvalidRequestError) || !error.details) return error;
  const problems = Object.entries(error.details).map(([path, messages]) => {
    const [member = 'policies', ...rest] = path.split('.');
    const option = OPTION_OF_MEMBER.get(member);
    const inner = rest.map((part) => (/^\d+$/.test(part) ? `item ${Number(part) + 1}` : part));
    return `${[option ? `--${option}` : member, ...inner].join(' ')}: ${messages.join(' ')}`;
  });
  return new UsageError(`Invalid ${what}: ${problems.join('; ')}`);
}
