import { describe, expect, it } from 'vitest';
import { accountMetricsFromMe, postMetricsFromInsights } from '../../../shared/networks/instagram/metrics.js';
import { metricsFailureOf } from '../../../shared/networks/instagram/metrics-failure.js';
import { instagramMetrics } from '../../../shared/networks/instagram/metrics-fields.js';

describe('Instagram metrics: mapping its names to ours', () => {
  it('maps saved to saves and the reel watch time from milliseconds to seconds', () => {
    expect(
      postMetricsFromInsights({
        views: 1200,
        reach: 700,
        likes: 90,
        comments: 12,
        shares: 4,
        saved: 30,
        ig_reels_video_view_total_time: 7_801_400,
      }),
    ).toEqual({
      views: 1200,
      reach: 700,
      likes: 90,
      comments: 12,
      shares: 4,
      saves: 30,
      watchTimeSeconds: 7801,
    });
  });

  it('leaves out what Instagram did not answer or answered as no count, never turning it into 0', () => {
    expect(postMetricsFromInsights({ views: 10, reach: -1, likes: '5', total_interactions: 9 })).toEqual({
      views: 10,
    });
    expect(postMetricsFromInsights({})).toEqual({});
  });

  it('maps the account’s counts from /me', () => {
    expect(
      accountMetricsFromMe({ followers_count: 1500, follows_count: 80, media_count: 42, id: 'x' }),
    ).toEqual({
      followers: 1500,
      following: 80,
      posts: 42,
    });
  });

  it('names every field it maps in the definition, by Instagram’s name', () => {
    expect(instagramMetrics.fields).toMatchObject({
      saves: 'saved',
      views: 'views',
      'account.followers': 'followers_count',
    });
    expect(instagramMetrics.scopes).toEqual(['instagram_business_manage_insights']);
  });
});

describe('Instagram metrics: its error answers as our outcomes', () => {
  const cases: [string, Parameters<typeof metricsFailureOf>[0], string][] = [
    ['an expired token (190/463, HTTP 400)', { status: 400, code: 190, subcode: 463 }, 'auth_failed'],
    ['a 401 without a body', { status: 401 }, 'auth_failed'],
    ['a missing permission (10)', { status: 400, code: 10 }, 'missing_scopes'],
    ['a 2xx-family permission code (200)', { status: 403, code: 200 }, 'missing_scopes'],
    ['the app throttled (4)', { status: 429, code: 4 }, 'rate_limited'],
    ['the account throttled (17)', { status: 429, code: 17 }, 'rate_limited'],
    ['the Business Use Case limit (80002)', { status: 400, code: 80002 }, 'rate_limited'],
    ['a bare 429', { status: 429 }, 'rate_limited'],
    ['a server error', { status: 503 }, 'unavailable'],
    ['a transient Graph error (2)', { status: 400, code: 2 }, 'unavailable'],
    ['an unknown refusal (100)', { status: 400, code: 100 }, 'unavailable'],
  ];
  it.each(cases)('%s → %s', (_, facts, failure) => {
    expect(metricsFailureOf(facts, 'the insights read').failure).toBe(failure);
  });

  it('gives the wait only when Instagram named one', () => {
    expect(metricsFailureOf({ status: 400, code: 80002, retryAfterSeconds: 600 }, 'x')).toMatchObject({
      retryAfterSeconds: 600,
    });
    expect(metricsFailureOf({ status: 429, code: 4 }, 'x')).not.toHaveProperty('retryAfterSeconds');
  });

  it('names the insights permission as missing', () => {
    expect(metricsFailureOf({ status: 400, code: 10 }, 'x')).toMatchObject({
      missingScopes: ['instagram_business_manage_insights'],
    });
  });
});
