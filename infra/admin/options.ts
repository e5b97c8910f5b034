import { parseArgs } from 'node:util';
import { type IdKind, isIdOf } from '../../shared/domain/ids.js';
import { isPermission, PERMISSIONS, type Permission } from '../../shared/domain/permissions.js';
import {
  normalizePlatform,
  PLATFORM_ALIASES,
  PLATFORMS,
  type Platform,
} from '../../shared/domain/platforms.js';
import { PLAN_TIERS, type PlanTier } from '../../shared/domain/rate-limit-policy.js';
import type { PlanStatus } from '../../shared/domain/tenancy.js';
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

export function platform(values: Values): Platform {
  const value = requiredString(values, 'platform');
  const normalized = normalizePlatform(value);
  if (!normalized) {
    const accepted = [...PLATFORMS, ...Object.keys(PLATFORM_ALIASES)].join(', ');
    throw new UsageError(`--platform must be one of ${accepted}; got "${value}".`);
  }
  return normalized;
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
