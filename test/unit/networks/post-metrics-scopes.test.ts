import { describe, expect, it } from 'vitest';
import { networkMetricsOf, postMetricsScopesOf } from '../../../shared/networks/network-metrics.js';

const PAGE = 'urn:li:organization:2414183';

describe("postMetricsScopesOf: what one post's metrics need", () => {
  it("LinkedIn: a Page's post needs rw_organization_admin alone", () => {
    expect(
      postMetricsScopesOf({ platform: 'linkedin', platformOptions: { linkedin: { author: PAGE } } }),
    ).toEqual(['rw_organization_admin']);
  });

  it("LinkedIn: a member's own post, said or by default, needs r_member_postAnalytics alone", () => {
    const expected = ['r_member_postAnalytics'];
    expect(
      postMetricsScopesOf({ platform: 'linkedin', platformOptions: { linkedin: { author: 'member' } } }),
    ).toEqual(expected);
    expect(
      postMetricsScopesOf({ platform: 'linkedin', platformOptions: { linkedin: { visibility: 'PUBLIC' } } }),
    ).toEqual(expected);
    expect(postMetricsScopesOf({ platform: 'linkedin' })).toEqual(expected);
  });

  it('a network whose posts all need the same: every scope of its metrics', () => {
    expect(postMetricsScopesOf({ platform: 'tiktok', platformOptions: {} })).toEqual(
      networkMetricsOf('tiktok')?.scopes,
    );
    expect(postMetricsScopesOf({ platform: 'instagram' })).toEqual(networkMetricsOf('instagram')?.scopes);
  });
});
