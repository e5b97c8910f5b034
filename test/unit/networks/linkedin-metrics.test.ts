import { describe, expect, it } from 'vitest';
import { linkedinDefinition } from '../../../shared/networks/linkedin/definition.js';
import {
  metricsFailureOf,
  secondsUntilUtcMidnight,
} from '../../../shared/networks/linkedin/metrics-failures.js';
import { analyticsEntity } from '../../../shared/networks/linkedin/metrics-member-posts.js';
import {
  LINKEDIN_COMMUNITY_SCOPES,
  LINKEDIN_MEMBER_SCOPES,
} from '../../../shared/networks/linkedin/oauth.js';

const read = {
  what: 'a post’s statistics',
  scope: 'r_member_postAnalytics',
  nowMs: Date.parse('2026-05-10T23:59:00Z'),
};

describe('LinkedIn metrics, the pieces', () => {
  it('writes the member finder’s entity in Rest.li 2.0 form: the union member bare, the URN encoded', () => {
    expect(analyticsEntity('urn:li:share:7302154837465296896')).toBe(
      '(share:urn%3Ali%3Ashare%3A7302154837465296896)',
    );
    expect(analyticsEntity('urn:li:ugcPost:6443156446455693312')).toBe(
      '(ugc:urn%3Ali%3AugcPost%3A6443156446455693312)',
    );
    expect(analyticsEntity('urn:li:activity:1')).toBeUndefined();
    expect(analyticsEntity('urn:li:share:12345678901234567890')).toBeUndefined();
  });

  it('waits until LinkedIn’s daily reset at midnight UTC when it gives no Retry-After', () => {
    expect(secondsUntilUtcMidnight(read.nowMs)).toBe(60);
    expect(secondsUntilUtcMidnight(Date.parse('2026-05-10T00:00:00Z'))).toBe(86_400);
    expect(metricsFailureOf({ status: 429, inputErrorCodes: [] }, read)).toMatchObject({
      failure: 'rate_limited',
      retryAfterSeconds: 60,
    });
    expect(metricsFailureOf({ status: 429, inputErrorCodes: [], retryAfterSeconds: 7 }, read)).toMatchObject({
      retryAfterSeconds: 7,
    });
  });

  it.each([
    [401, 'auth_failed'],
    [403, 'missing_scopes'],
    [426, 'unavailable'],
    [500, 'unavailable'],
    [400, 'unavailable'],
  ] as const)('maps HTTP %i to %s', (status, failure) => {
    const answer = metricsFailureOf({ status, inputErrorCodes: [] }, read);
    expect(answer).toMatchObject({ kind: 'failed', failure });
    if (failure === 'missing_scopes') expect(answer.missingScopes).toEqual(['r_member_postAnalytics']);
    else expect(answer.missingScopes).toBeUndefined();
  });

  it('asks for its metrics scopes through the Community Management app only, which LinkedIn grants them through', () => {
    const scopes = linkedinDefinition.metrics.scopes;
    expect(scopes.every((scope) => (LINKEDIN_COMMUNITY_SCOPES as readonly string[]).includes(scope))).toBe(
      true,
    );
    expect(scopes.some((scope) => (LINKEDIN_MEMBER_SCOPES as readonly string[]).includes(scope))).toBe(false);
  });

  it('names LinkedIn’s field for each of ours, a member post’s and a Page post’s', () => {
    expect(linkedinDefinition.metrics.fields).toMatchObject({
      impressions: 'IMPRESSION (member post), impressionCount (Page post)',
      saves: 'POST_SAVE (member post)',
      clicks: 'clickCount (Page post)',
      followers: 'memberFollowersCount',
    });
  });
});
