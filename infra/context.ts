import type { Node } from 'constructs';
import type { DailyQuotaOverrides } from '../shared/domain/account-quotas.js';
import { NETWORK_ENDPOINT_DEFAULTS, type NetworkEndpointName } from '../shared/runtime/network-config.js';
import { loadDailyQuotaOverrides, QUOTA_SETTING_NAMES } from '../shared/runtime/quota-settings.js';
import { type ApiThrottle, type CustomDomain, DEFAULT_API_THROTTLE } from './constructs/http-api.js';

/**
 * The deployment's settings, from CDK context (`cdk.json`, or `-c name=value` on the command line):
 * - `stage` (default `dev`): names the stack `SocialPublishing-<stage>` and the schedule group;
 * - `corsOrigins` (default `*`): origins allowed to PUT to presigned upload URLs from a browser; a
 *   JSON array in cdk.json, or a comma-separated list on the command line;
 * - `alarmEmail`: subscribed to the alarm topic; none when absent;
 * - `domainName` with `certificateArn`: a custom domain for the API (both or neither);
 * - `networkSecretsPrefix` (default `social-publishing/<stage>/networks/`): the name prefix of the
 *   networks' app secrets the stack creates, one per app (`<prefix>x`, `<prefix>linkedin`…), which
 *   only the functions that call the networks may read;
 * - `X_API_URL`, `LINKEDIN_OAUTH_URL`… (every name of NETWORK_ENDPOINT_DEFAULTS): a network address
 *   other than the real one, set on the functions that call the networks; none by default, so the
 *   code's real hosts apply;
 * - `apiThrottleRateLimit` (default 500) and `apiThrottleBurstLimit` (default 1000): API Gateway's
 *   throttle on the whole API, requests per second and burst;
 * - `logLevel` (default `INFO`): every function's POWERTOOLS_LOG_LEVEL (DEBUG, INFO, WARN, ERROR);
 * - `mcpReservedConcurrency` (default none): reserved concurrency of the MCP function, the one cap
 *   on its Function URL (none by default: a reservation fails the deploy in an account whose
 *   concurrency quota cannot spare it, as new accounts' often cannot).
 * - `YOUTUBE_DAILY_QUOTA_UNITS`, `YOUTUBE_UPLOAD_COST_UNITS` (every name of QUOTA_SETTING_NAMES: a
 *   network's `quotaSettings`): a project's own daily quota, set on every function; either alone
 *   keeps the other's default, the network's.
 */
export interface ServiceContext {
  stage: string;
  corsOrigins: readonly string[];
  alarmEmail?: string;
  customDomain?: CustomDomain;
  networkSecretsPrefix: string;
  /** The network addresses given as context; absent ones are the real hosts (in the code). */
  networkEndpoints: Readonly<Partial<Record<NetworkEndpointName, string>>>;
  apiThrottle: ApiThrottle;
  logLevel: LogLevel;
  mcpReservedConcurrency?: number;
  /** The daily quotas given as context (every name of QUOTA_SETTING_NAMES); absent: the code's defaults. */
  dailyQuotaOverrides?: DailyQuotaOverrides;
}

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ContextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContextError';
  }
}

const STAGE = /^[a-z][a-z0-9-]{0,31}$/;
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/;
/** The characters Secrets Manager allows in a name. */
const SECRET_PREFIX = /^[A-Za-z0-9/_+=.@-]{1,256}$/;

/** The default secret name prefix of a stage. */
export function defaultNetworkSecretsPrefix(stage: string): string {
  return `social-publishing/${stage}/networks/`;
}

/** Reads and checks the context once, so a mistake fails the synth with a sentence, not a deploy. */
export function readServiceContext(node: Node): ServiceContext {
  const text = (name: string): string | undefined => {
    const value: unknown = node.tryGetContext(name);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw new ContextError(`Context "${name}" must be a string.`);
    return value.trim();
  };

  const stage = text('stage') ?? 'dev';
  if (!STAGE.test(stage)) {
    throw new ContextError(`Context "stage" must be lower-case letters, digits and dashes, got "${stage}".`);
  }

  const alarmEmail = text('alarmEmail');
  if (alarmEmail !== undefined && !EMAIL.test(alarmEmail)) {
    throw new ContextError(`Context "alarmEmail" is not an email address: "${alarmEmail}".`);
  }

  const domainName = text('domainName')?.toLowerCase();
  const certificateArn = text('certificateArn');
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new ContextError('Context "domainName" and "certificateArn" go together: give both or neither.');
  }
  if (domainName !== undefined && !DOMAIN.test(domainName)) {
    throw new ContextError(`Context "domainName" is not a domain name: "${domainName}".`);
  }
  if (certificateArn !== undefined && !CERTIFICATE_ARN.test(certificateArn)) {
    throw new ContextError(`Context "certificateArn" is not an ACM certificate ARN: "${certificateArn}".`);
  }

  const networkSecretsPrefix = text('networkSecretsPrefix') ?? defaultNetworkSecretsPrefix(stage);
  if (!SECRET_PREFIX.test(networkSecretsPrefix)) {
    throw new ContextError(
      'Context "networkSecretsPrefix" may hold letters, digits and / _ + = . @ - only, ' +
        `got "${networkSecretsPrefix}".`,
    );
  }

  const networkEndpoints: Partial<Record<NetworkEndpointName, string>> = {};
  for (const name of Object.keys(NETWORK_ENDPOINT_DEFAULTS) as NetworkEndpointName[]) {
    const value = text(name);
    if (value === undefined) continue;
    if (!isHttpUrl(value))
      throw new ContextError(`Context "${name}" must be an http(s) URL, got "${value}".`);
    networkEndpoints[name] = value.replace(/\/+$/, '');
  }

  let dailyQuotaOverrides: DailyQuotaOverrides | undefined;
  try {
    dailyQuotaOverrides = loadDailyQuotaOverrides(
      Object.fromEntries(QUOTA_SETTING_NAMES.map((name) => [name, text(name)])),
    );
  } catch (error) {
    throw new ContextError(`Context: ${(error as Error).message}`);
  }

  const apiThrottle: ApiThrottle = {
    rateLimit: readCount(node, 'apiThrottleRateLimit') ?? DEFAULT_API_THROTTLE.rateLimit,
    burstLimit: readCount(node, 'apiThrottleBurstLimit') ?? DEFAULT_API_THROTTLE.burstLimit,
  };

  const logLevel = (text('logLevel') ?? 'INFO').toUpperCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ContextError(`Context "logLevel" must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}".`);
  }

  const mcpReservedConcurrency = readCount(node, 'mcpReservedConcurrency');

  return {
    stage,
    logLevel: logLevel as LogLevel,
    corsOrigins: readCorsOrigins(node.tryGetContext('corsOrigins')),
    ...(alarmEmail !== undefined && { alarmEmail }),
    ...(domainName !== undefined &&
      certificateArn !== undefined && {
        customDomain: { domainName, certificateArn },
      }),
    networkSecretsPrefix,
    networkEndpoints,
    apiThrottle,
    ...(mcpReservedConcurrency !== undefined && { mcpReservedConcurrency }),
    ...(dailyQuotaOverrides && { dailyQuotaOverrides }),
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** A whole number of 1 or more, given as a number (cdk.json) or as digits (`-c name=500`). */
function readCount(node: Node, name: string): number | undefined {
  const value: unknown = node.tryGetContext(name);
  if (value === undefined || value === null || value === '') return undefined;
  const count = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1) {
    throw new ContextError(
      `Context "${name}" must be a whole number of 1 or more, got ${JSON.stringify(value)}.`,
    );
  }
  return count;
}

function readCorsOrigins(value: unknown): readonly string[] {
  if (value === undefined || value === null || value === '') return ['*'];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!list?.every((item): item is string => typeof item === 'string')) {
    throw new ContextError('Context "corsOrigins" must be a list of origins, or a comma-separated string.');
  }
  const origins = list.map((origin) => origin.trim()).filter((origin) => origin !== '');
  const bad = origins.filter((origin) => origin !== '*' && !ORIGIN.test(origin));
  if (origins.length === 0 || bad.length > 0) {
    throw new ContextError(
      `Context "corsOrigins" takes "*" or origins like https://app.example.com, got ${JSON.stringify(value)}.`,
    );
  }
  return origins;
}
