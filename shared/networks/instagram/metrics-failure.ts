import type { PostMetricsAnswer } from '../../ports/connector.js';
import type { GraphErrorFacts } from './errors.js';
import { INSTAGRAM_INSIGHTS_SCOPE } from './metrics-fields.js';

export type MetricsFailed = Extract<PostMetricsAnswer, { kind: 'failed' }>;

/** Throttles (Graph's app, user and page limits, and Instagram's Business Use Case limit). */
const THROTTLE_CODES = new Set([4, 17, 32, 613, 80002]);

/** Graph's "object does not exist" (code 100, subcode 33): the media was deleted on Instagram. */
export function isGoneMedia(facts: GraphErrorFacts): boolean {
  return facts.code === 100 && facts.subcode === 33;
}

/** A permission refusal: code 10, or a 2xx-family code (200–299). */
export function isPermissionRefusal(facts: GraphErrorFacts): boolean {
  return facts.code === 10 || (facts.code !== undefined && facts.code >= 200 && facts.code <= 299);
}

export function missingInsightsScope(): MetricsFailed {
  return {
    kind: 'failed',
    failure: 'missing_scopes',
    missingScopes: [INSTAGRAM_INSIGHTS_SCOPE],
    message: `The Instagram account was not granted ${INSTAGRAM_INSIGHTS_SCOPE}: reconnect it to read its metrics.`,
  };
}

export function metricsUnavailable(message: string): MetricsFailed {
  return { kind: 'failed', failure: 'unavailable', message };
}

/**
 * A Graph error answer of a metrics read as a whole-request failure (docs/metrics.md "Instagram").
 * Only the codes are read, never the message: token errors come as 400 as often as 401.
 */
export function metricsFailureOf(facts: GraphErrorFacts, what: string): MetricsFailed {
  if (facts.code === 190 || (facts.code === undefined && facts.status === 401)) {
    return {
      kind: 'failed',
      failure: 'auth_failed',
      message: `Instagram refused the account's access token at ${what}: the account needs a reconnect.`,
    };
  }
  if (isPermissionRefusal(facts)) return missingInsightsScope();
  if ((facts.code !== undefined && THROTTLE_CODES.has(facts.code)) || facts.status === 429) {
    return {
      kind: 'failed',
      failure: 'rate_limited',
      ...(facts.retryAfterSeconds !== undefined && { retryAfterSeconds: facts.retryAfterSeconds }),
      message: `Instagram throttled the app or account at ${what}.`,
    };
  }
  if (facts.status >= 500 || facts.code === 1 || facts.code === 2) {
    return metricsUnavailable(`Instagram failed with a server error at ${what}.`);
  }
  // A refusal the connector does not know (a metric Instagram stopped answering): the next collection tries again.
  return metricsUnavailable(`Instagram refused ${what} (HTTP ${facts.status}).`);
}
