import { ConfigError } from './config-error.js';

/**
 * The Google project's YouTube quota as the service counts it per account (docs/networks.md
 * "Video network (YouTube)", "Quota"): units a day (YouTube's default 10,000; a project may be
 * granted more) and what one upload costs (about 1,600). Both or neither.
 */
export interface YouTubeQuota {
  dailyUnits: number;
  uploadCostUnits: number;
}

const UNITS = 'YOUTUBE_DAILY_QUOTA_UNITS';
const COST = 'YOUTUBE_UPLOAD_COST_UNITS';

function positiveInteger(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new ConfigError(`${name} must be a positive whole number.`);
  return number;
}

/** Read once at start; undefined when neither is set. A malformed value fails the start. */
export function loadYouTubeQuota(env: NodeJS.ProcessEnv): YouTubeQuota | undefined {
  const units = env[UNITS];
  const cost = env[COST];
  if (!units && !cost) return undefined;
  const dailyUnits = units ? positiveInteger(UNITS, units) : 10_000;
  const uploadCostUnits = cost ? positiveInteger(COST, cost) : 1600;
  if (uploadCostUnits > dailyUnits) throw new ConfigError(`${COST} may not exceed ${UNITS}.`);
  return { dailyUnits, uploadCostUnits };
}

/** The config field, spread into a ServiceConfig. */
export function youTubeQuotaOf(env: NodeJS.ProcessEnv): { youtubeQuota?: YouTubeQuota } {
  const youtubeQuota = loadYouTubeQuota(env);
  return youtubeQuota ? { youtubeQuota } : {};
}

/** Back to the environment (configToEnv). */
export function youTubeQuotaEnv(quota: YouTubeQuota): Record<string, string> {
  return { [UNITS]: String(quota.dailyUnits), [COST]: String(quota.uploadCostUnits) };
}
