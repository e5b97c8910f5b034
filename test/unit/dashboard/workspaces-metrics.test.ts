import { describe, expect, it } from 'vitest';
import {
  bestPosts,
  type PostLatestMetrics,
  totalsByNetwork,
  workspaceMetricsSection,
} from '../../../shared/dashboard/views/workspaces-metrics.js';

const post = (
  id: string,
  platform: PostLatestMetrics['platform'],
  metrics: PostLatestMetrics['metrics'],
) => ({
  id,
  platform,
  content: `text of ${id}`,
  publishedAt: '2026-11-20T10:00:00.000Z',
  metrics,
});

describe('totalsByNetwork', () => {
  it('sums each metric per network in the platforms’ order, leaving absent what no post reported', () => {
    const totals = totalsByNetwork([
      post('a', 'tiktok', { views: 100, likes: 3 }),
      post('b', 'twitter', { impressions: 50, likes: 1 }),
      post('c', 'twitter', { impressions: 25 }),
    ]);

    expect(totals).toEqual([
      { platform: 'twitter', posts: 2, totals: { impressions: 75, likes: 1 } },
      { platform: 'tiktok', posts: 1, totals: { views: 100, likes: 3 } },
    ]);
  });

  it('does not add up percentages of different posts', () => {
    const [youtube] = totalsByNetwork([
      post('a', 'youtube', { views: 10, averageViewPercent: 40 }),
      post('b', 'youtube', { views: 20, averageViewPercent: 60 }),
    ]);
    expect(youtube?.totals).toEqual({ views: 30 });
  });
});

describe('bestPosts', () => {
  it('ranks by views, then likes, leaves out posts reporting neither, and keeps the first five', () => {
    const ranked = bestPosts([
      post('likes-only', 'twitter', { likes: 500 }),
      post('few-views', 'tiktok', { views: 10, likes: 1 }),
      post('many-views', 'youtube', { views: 900 }),
      post('tie-more-likes', 'tiktok', { views: 10, likes: 7 }),
      post('impressions-only', 'linkedin', { impressions: 10_000 }),
    ]);
    expect(ranked.map((one) => one.id)).toEqual(['many-views', 'tie-more-likes', 'few-views', 'likes-only']);

    const many = Array.from({ length: 8 }, (_, index) => post(`p${index}`, 'tiktok', { views: index }));
    expect(bestPosts(many).map((one) => one.id)).toEqual(['p7', 'p6', 'p5', 'p4', 'p3']);
  });
});

describe('workspaceMetricsSection', () => {
  const render = async (metrics: Parameters<typeof workspaceMetricsSection>[1]) =>
    String(await workspaceMetricsSection('wks_1', metrics));

  it('says the bound, and that there are more posts when it cut the reading short', async () => {
    const markup = await render({
      published: 50,
      measured: [post('a', 'tiktok', { views: 1 })],
      cutShort: true,
    });
    expect(markup).toContain(
      'From the 50 newest published posts at most (there are more): 50 published in the last 30 days, 1 with metrics read.',
    );
    expect(markup).toContain("<caption>Totals per network, from each post's latest reading</caption>");
  });

  it('has an empty state without posts in the window, and says when the read failed', async () => {
    expect(await render({ published: 0, measured: [], cutShort: false })).toContain(
      'No post was published in the last 30 days',
    );
    expect(await render(undefined)).toContain('The metrics could not be read just now.');
  });

  it('escapes a post’s text in the best posts', async () => {
    const markup = await render({
      published: 1,
      measured: [{ ...post('a', 'tiktok', { views: 1 }), content: '<img src=x onerror=alert(1)>' }],
      cutShort: false,
    });
    expect(markup).not.toContain('<img');
    expect(markup).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
