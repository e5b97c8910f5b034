import type { DailyQuotaOverrides, QuotaOverride } from '../domain/account-quotas.js';
import type { QuotaSettings } from '../networks/definition.js';
import {
  DAILY_QUOTA_OF_PLATFORM,
  type PlatformId,
  QUOTA_SETTINGS_OF_PLATFORM,
} from '../networks/definitions.js';
import { ConfigError } from './config-error.js';

/**
 * The daily quotas an operator sets for the networks whose provider grants a project its own (a
 * network's `quotaSettings`: the names of its two settings). Each setting is an environment variable
 * of the functions and a CDK context key of the same name (docs/deploy.md); either alone keeps the
 * other's default, the network's `dailyQuota`.
 */
const SETTINGS = Object.entries(QUOTA_SETTINGS_OF_PLATFORM) as [PlatformId, QuotaSettings][];

/** Every setting's name, as the environment and CDK context spell it. */
export const QUOTA_SETTING_NAMES: readonly string[] = SETTINGS.flatMap(([, names]) => [
  names.limit,
  names.costPerPost,
]);

function positiveInteger(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new ConfigError(`${name} must be a positive whole number.`);
  return number;
}

/** One network's quota; undefined when neither of its settings is set. A malformed value fails the start. */
function loadQuotaOverride(
  platform: PlatformId,
  names: QuotaSettings,
  env: NodeJS.ProcessEnv,
): QuotaOverride | undefined {
  const limitText = env[names.limit];
  const costText = env[names.costPerPost];
  if (!limitText && !costText) return undefined;
  const defaults = DAILY_QUOTA_OF_PLATFORM[platform];
  const limit = limitText ? positiveInteger(names.limit, limitText) : defaults.limit;
  const costPerPost = costText ? positiveInteger(names.costPerPost, costText) : defaults.costPerPost;
  if (costPerPost > limit) throw new ConfigError(`${names.costPerPost} may not exceed ${names.limit}.`);
  return { limit, costPerPost };
}

/** Read once at start; undefined when no setting is set. A malformed value fails the start. */
export function loadDailyQuotaOverrides(env: NodeJS.ProcessEnv): DailyQuotaOverrides | undefined {
  const overrides = SETTINGS.flatMap(([platform, names]) => {
    const override = loadQuotaOverride(platform, names, env);
    return override ? [[platform, override] as const] : [];
  });
  return overrides.length === 0 ? undefined : Object.fromEntries(overrides);
}

/** The config field, spread into a ServiceConfig. */
export function dailyQuotaOverridesOf(env: NodeJS.ProcessEnv): { dailyQuotaOverrides?: DailyQuotaOverrides } {
  const dailyQuotaOverrides = loadDailyQuotaOverrides(env);
  return dailyQuotaOverrides ? { dailyQuotaOverrides } : {};
}

/** Back to the environment (configToEnv, the functions' environment in CDK). */
export function dailyQuotaOverridesEnv(overrides: DailyQuotaOverrides): Record<string, string> {
  return Object.fromEntries(
    SETTINGS.flatMap(([platform, names]) => {
      const override = overrides[platform];
      return override
        ? [
            [names.limit, String(override.limit)],
            [names.costPerPost, String(override.costPerPost)],
          ]
        : [];
    }),
  );
}
