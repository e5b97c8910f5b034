import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../../shared/domain/platforms.js';
import { accountMetricsScopesOf, networkMetricsOf } from '../../../shared/networks/network-metrics.js';

describe("accountMetricsScopesOf: what an account's own metrics need", () => {
  it("LinkedIn: the member's follower count needs r_member_profileAnalytics alone", () => {
    expect(accountMetricsScopesOf('linkedin')).toEqual(['r_member_profileAnalytics']);
    expect(networkMetricsOf('linkedin')?.scopes).toContain('r_member_postAnalytics');
  });

  it("TikTok: the user's counts need user.info.stats alone, not video.list", () => {
    expect(accountMetricsScopesOf('tiktok')).toEqual(['user.info.stats']);
    expect(networkMetricsOf('tiktok')?.scopes).toContain('video.list');
  });

  it("Instagram: GET /me's counts need none of the insights scope", () => {
    expect(accountMetricsScopesOf('instagram')).toEqual([]);
    expect(networkMetricsOf('instagram')?.scopes).toEqual(['instagram_business_manage_insights']);
  });

  it('X: GET /2/users/me needs what the posts read needs (no accountScopes: all its scopes)', () => {
    expect(accountMetricsScopesOf('twitter')).toEqual(networkMetricsOf('twitter')?.scopes);
  });

  it("every network: the account's scopes are among its metrics' scopes (asked at connect)", () => {
    for (const platform of PLATFORMS) {
      const all = networkMetricsOf(platform)?.scopes ?? [];
      for (const scope of accountMetricsScopesOf(platform)) expect(all).toContain(scope);
    }
  });

  it('a network without metrics needs none', () => {
    const without = PLATFORMS.filter((platform) => networkMetricsOf(platform) === undefined);
    for (const platform of without) expect(accountMetricsScopesOf(platform)).toEqual([]);
  });
});
