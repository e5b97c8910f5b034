import { createHash } from 'node:crypto';
import type { AccountMetricValues, PostMetricName, PostMetricValues } from '../../domain/metrics.js';
import { METRICS_SLOTS_SECONDS } from '../../domain/metrics-schedule.js';
import type { Platform } from '../../domain/platforms.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  MetricsTarget,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../ports/connector.js';
import type { NetworkDefinition } from '../definition.js';
import { definitionOf } from '../definitions.js';
import { parseSandboxDirectives, type SandboxDirectives } from './directives.js';

/** `retryAfterSeconds` of a rate-limited metrics read, as the publish's rate limit says. */
export const SANDBOX_METRICS_RETRY_AFTER_SECONDS = 60;

/** The fields a network without a metrics definition yet answers in the sandbox. */
const FALLBACK_FIELDS: readonly PostMetricName[] = ['impressions', 'likes', 'comments', 'shares'];

/** How big each field is against a post's own scale (views and impressions largest). */
const FIELD_SHARE: Readonly<Record<PostMetricName, number>> = {
  impressions: 1,
  reach: 0.7,
  views: 0.8,
  likes: 0.05,
  comments: 0.01,
  shares: 0.008,
  saves: 0.006,
  clicks: 0.02,
  quotes: 0.002,
  watchTimeSeconds: 6,
  averageViewPercent: 0,
};

/** A number in [0, 1) fixed by the text: the same post answers the same numbers everywhere. */
function unit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * How far a post has grown at `now`: 0 at publication, rising fast in the first day and levelling
 * off after a week, the way real posts' numbers do (never down: the numbers only grow).
 */
function growth(publishedAt: string, now: number): number {
  const hours = Math.max(0, (now - Date.parse(publishedAt)) / 3_600_000);
  return 1 - Math.exp(-hours / 30);
}

/** The post's numbers at `now`: the fields its network reports, growing with time, fixed per post. */
export function sandboxPostMetrics(platform: Platform, target: MetricsTarget, now: number): PostMetricValues {
  const definition: NetworkDefinition = definitionOf(platform);
  const fields = (Object.keys(definition.metrics?.fields ?? {}) as PostMetricName[]).filter(
    (field) => field in FIELD_SHARE,
  );
  const scale = 500 + Math.floor(unit(target.platformPostId) * 20_000);
  const grown = growth(target.publishedAt, now);
  const values: PostMetricValues = {};
  for (const field of fields.length > 0 ? fields : FALLBACK_FIELDS) {
    values[field] =
      field === 'averageViewPercent'
        ? Math.round((35 + unit(`${target.platformPostId}:${field}`) * 40) * 10) / 10
        : Math.floor(scale * FIELD_SHARE[field] * grown);
  }
  return values;
}

/**
 * The sandbox's metrics reader (docs/sandbox.md "Metrics"): numbers that grow with the clock from
 * each post's publication, deterministic per post id, and the failures magic content asks for. A
 * failure of the whole request (a rate limit, missing scopes, a refused token, no answer) is
 * answered when any post of the batch asks for it, as a real network answers one request.
 */
export function makeSandboxMetricsReaders(now: () => number) {
  async function readPostMetrics(request: PostMetricsRequest): Promise<PostMetricsAnswer> {
    request.signal.throwIfAborted();
    const at = now();
    const platform = request.account.platform;
    const directives = request.posts.map((target) => parseSandboxDirectives(target.texts ?? []));
    const failed = requestFailure(platform, request.posts, directives, at);
    if (failed) return failed;
    const byPost: Record<string, PostMetricValues> = {};
    const notFound: string[] = [];
    request.posts.forEach((target, i) => {
      if (directives[i]?.metricsFailure === 'not_found') notFound.push(target.postId);
      else byPost[target.postId] = sandboxPostMetrics(platform, target, at);
    });
    return { kind: 'metrics', byPost, notFound };
  }

  async function readAccountMetrics(request: AccountMetricsRequest): Promise<AccountMetricsAnswer> {
    request.signal.throwIfAborted();
    const { account } = request;
    const days = Math.max(0, (now() - Date.parse(account.connectedAt)) / 86_400_000);
    const base = 100 + Math.floor(unit(account.accountId) * 5_000);
    const metrics: AccountMetricValues = {
      followers: base + Math.floor(days * (3 + unit(`${account.accountId}:f`) * 20)),
      following: 50 + Math.floor(unit(`${account.accountId}:g`) * 400),
      posts: 10 + Math.floor(days / 2),
    };
    return { kind: 'metrics', metrics };
  }

  return { readPostMetrics, readAccountMetrics };
}

function requestFailure(
  platform: Platform,
  targets: readonly MetricsTarget[],
  directives: readonly SandboxDirectives[],
  at: number,
): Extract<PostMetricsAnswer, { kind: 'failed' }> | undefined {
  const failures = new Set(directives.map((d) => d.metricsFailure));
  if (failures.has('auth_failed')) {
    return {
      kind: 'failed',
      failure: 'auth_failed',
      message: 'Sandbox: the token was refused ([sandbox:metrics_auth_failed]).',
    };
  }
  if (failures.has('missing_scopes')) {
    const definition: NetworkDefinition = definitionOf(platform);
    return {
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: definition.metrics?.scopes ?? [],
      message: 'Sandbox: the token lacks the metrics scopes ([sandbox:metrics_missing_scopes]).',
    };
  }
  const throttled = targets.some((target, i) => {
    const minutes = directives[i]?.metricsRateLimitedMinutes;
    if (minutes === undefined) return false;
    const firstSlot = Date.parse(target.publishedAt) + METRICS_SLOTS_SECONDS[0] * 1000;
    return at < firstSlot + minutes * 60_000;
  });
  if (throttled) {
    return {
      kind: 'failed',
      failure: 'rate_limited',
      retryAfterSeconds: SANDBOX_METRICS_RETRY_AFTER_SECONDS,
      message: 'Sandbox: metrics reads are rate limited ([sandbox:metrics_rate_limited]).',
    };
  }
  if (failures.has('unavailable')) {
    return {
      kind: 'failed',
      failure: 'unavailable',
      message: 'Sandbox: no answer ([sandbox:metrics_unavailable]).',
    };
  }
  return undefined;
}
