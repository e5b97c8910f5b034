import { describe, expect, it } from 'vitest';
import {
  accountMetricsOf,
  postMetricsOf,
  VideoStatistics,
} from '../../../shared/networks/youtube/statistics.js';

describe("YouTube statistics in the metrics' vocabulary", () => {
  it('maps viewCount, likeCount and commentCount, read from decimal strings', () => {
    const statistics = VideoStatistics.parse({
      viewCount: '1234',
      likeCount: '56',
      favoriteCount: '0',
      commentCount: '7',
    });

    expect(postMetricsOf(statistics)).toEqual({ views: 1234, likes: 56, comments: 7 });
  });

  it('reports nothing for a count YouTube left out, never 0', () => {
    expect(postMetricsOf(VideoStatistics.parse({ viewCount: '10' }))).toEqual({ views: 10 });
    expect(postMetricsOf(undefined)).toEqual({});
  });

  it('refuses a count that is not a decimal string', () => {
    expect(VideoStatistics.safeParse({ viewCount: '-3' }).success).toBe(false);
    expect(VideoStatistics.safeParse({ viewCount: 12 }).success).toBe(false);
  });

  it('maps the channel, leaving followers out when the count is hidden', () => {
    expect(accountMetricsOf({ subscriberCount: 1200, viewCount: 900, videoCount: 4 })).toEqual({
      followers: 1200,
      views: 900,
      posts: 4,
    });
    expect(accountMetricsOf({ subscriberCount: 0, hiddenSubscriberCount: true, viewCount: 900 })).toEqual({
      views: 900,
    });
  });
});
