import { describe, expect, it } from 'vitest';
import type { Account } from '../../../shared/domain/tenancy.js';
import type { XAnswer } from '../../../shared/networks/x/api.js';
import { xDefinition } from '../../../shared/networks/x/definition.js';
import { metricsFailureOfAnswer } from '../../../shared/networks/x/metrics-failures.js';
import {
  accountMetricsOf,
  postMetricsOf,
  X_METRICS_SCOPES,
  X_POST_METRIC_FIELDS,
} from '../../../shared/networks/x/metrics-fields.js';
import { X_SCOPES } from '../../../shared/networks/x/oauth.js';

const account = (scopes?: string[]): Account => ({
  accountId: 'acc_1',
  tenantId: 'ten_1',
  workspaceId: 'wks_1',
  platform: 'twitter',
  displayName: 'X',
  handle: '@x',
  status: 'connected',
  sandbox: false,
  connectedAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...(scopes && { scopes }),
});
const answer = (status: number, body: unknown, resetAt?: number): XAnswer => ({
  status,
  ok: status < 300,
  body,
  rateLimit: resetAt === undefined ? {} : { resetAt },
});

describe('X metrics: fields in our vocabulary', () => {
  it('maps public_metrics by X’s reference names, and leaves out what X did not give (never 0)', () => {
    expect(
      postMetricsOf({
        retweet_count: 3,
        reply_count: 2,
        like_count: 10,
        quote_count: 1,
        bookmark_count: 4,
        impression_count: 250,
      }),
    ).toEqual({ shares: 3, comments: 2, likes: 10, quotes: 1, saves: 4, impressions: 250 });
    expect(postMetricsOf({ like_count: 7 })).toEqual({ likes: 7 });
  });

  it('reads the OpenAPI document’s names (repost_count, post_count) where the reference’s are absent', () => {
    expect(postMetricsOf({ repost_count: 5 })).toEqual({ shares: 5 });
    expect(postMetricsOf({ retweet_count: 6, repost_count: 5 })).toEqual({ shares: 6 });
    expect(accountMetricsOf({ followers_count: 9, following_count: 2, post_count: 40 })).toEqual({
      followers: 9,
      following: 2,
      posts: 40,
    });
  });

  it('drops what is not a count: negative, not a number, text', () => {
    expect(postMetricsOf({ like_count: -1, reply_count: 'many', impression_count: Number.NaN })).toEqual({});
  });

  it('the definition says what the connector reads: 100 ids, the scopes, each field’s X name', () => {
    expect(xDefinition.metrics).toMatchObject({
      batchSize: 100,
      scopes: ['tweet.read', 'users.read'],
      fields: { impressions: 'public_metrics.impression_count', shares: 'public_metrics.retweet_count' },
      paidPerRead: true,
    });
    expect(Object.keys(xDefinition.metrics?.fields ?? {})).toEqual(Object.keys(X_POST_METRIC_FIELDS));
  });

  it('the connect asks for every scope the metrics need', () => {
    for (const scope of X_METRICS_SCOPES) expect(X_SCOPES).toContain(scope);
  });
});

describe('X metrics: failures', () => {
  const now = 1_800_000_000_000;

  it('429 with x-rate-limit-reset: rate_limited, seconds until the reset; usage-capped alike', () => {
    expect(metricsFailureOfAnswer(answer(429, {}, now / 1000 + 90), account(), now)).toMatchObject({
      failure: 'rate_limited',
      retryAfterSeconds: 90,
    });
    const capped = metricsFailureOfAnswer(
      answer(403, { type: 'https://api.x.com/2/problems/usage-capped', title: 'Usage cap exceeded' }),
      account(),
      now,
    );
    expect(capped.failure).toBe('rate_limited');
    expect(capped.retryAfterSeconds).toBeUndefined();
  });

  it('403: missing_scopes, those X names, else those the grant lacks, else all', () => {
    const forbidden = (detail: string) =>
      answer(403, { type: 'https://api.x.com/2/problems/client-forbidden', title: 'Forbidden', detail });
    expect(
      metricsFailureOfAnswer(forbidden('Missing scopes: users.read.'), account(), now).missingScopes,
    ).toEqual(['users.read']);
    expect(
      metricsFailureOfAnswer(forbidden('Forbidden'), account(['tweet.read', 'offline.access']), now)
        .missingScopes,
    ).toEqual(['users.read']);
    expect(metricsFailureOfAnswer(forbidden('Forbidden'), account(), now).missingScopes).toEqual([
      'tweet.read',
      'users.read',
    ]);
  });

  it('401: auth_failed; 5xx and 408: unavailable; the message is ours, never X’s body', () => {
    const secret = 'X says something about @someone';
    const refused = metricsFailureOfAnswer(answer(401, { detail: secret }), account(), now);
    expect(refused.failure).toBe('auth_failed');
    expect(refused.message).not.toContain(secret);
    expect(metricsFailureOfAnswer(answer(503, {}), account(), now).failure).toBe('unavailable');
    expect(metricsFailureOfAnswer(answer(408, {}), account(), now).failure).toBe('unavailable');
  });
});
