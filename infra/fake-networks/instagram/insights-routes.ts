import { graphError, type Reply, replies } from './http.js';
import type { ApiContext, Handler } from './route.js';
import type { FakeMedia } from './store.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The metrics each media product type answers, from the Instagram Media Insights reference
 * (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights):
 * asking one a type does not answer is refused (code 100), as are the metrics deprecated in 2025.
 */
const METRICS_BY_TYPE: Readonly<Record<FakeMedia['productType'], readonly string[]>> = {
  FEED: [
    'views',
    'reach',
    'likes',
    'comments',
    'shares',
    'saved',
    'total_interactions',
    'follows',
    'profile_visits',
  ],
  REELS: [
    'views',
    'reach',
    'likes',
    'comments',
    'shares',
    'saved',
    'total_interactions',
    'ig_reels_avg_watch_time',
    'ig_reels_video_view_total_time',
  ],
  STORY: [
    'views',
    'reach',
    'shares',
    'total_interactions',
    'replies',
    'navigation',
    'follows',
    'profile_visits',
  ],
};
const DEPRECATED = new Set([
  'impressions',
  'plays',
  'video_views',
  'clips_replays_count',
  'ig_reels_aggregated_all_plays_count',
]);
const KNOWN = new Set(Object.values(METRICS_BY_TYPE).flat());
/** Story insights below 5 viewers are refused (code 10, "Not enough viewers"). */
const STORY_MIN_VIEWERS = 5;

/**
 * A media's numbers at `now`: they grow with its age (the fake's clock), never shrink, and are
 * the same for the same age, so a test can compute what it should read.
 */
export function fakeInsightsAt(
  media: Pick<FakeMedia, 'timestamp' | 'productType'>,
  now: number,
): Record<string, number> {
  const hours = Math.max(0, now - media.timestamp) / HOUR_MS;
  const views = Math.floor(50 * Math.sqrt(hours));
  const likes = Math.floor(views / 10);
  const comments = Math.floor(views / 40);
  const shares = Math.floor(views / 50);
  const saved = Math.floor(views / 25);
  return {
    views,
    reach: Math.floor((views * 3) / 5),
    likes,
    comments,
    shares,
    saved,
    total_interactions: likes + comments + shares + saved,
    follows: Math.floor(views / 100),
    profile_visits: Math.floor(views / 20),
    replies: Math.floor(views / 60),
    navigation: Math.floor(views / 2),
    ig_reels_avg_watch_time: views > 0 ? 6500 : 0,
    ig_reels_video_view_total_time: views * 6500,
  };
}

function insight(mediaId: string, name: string, value: number) {
  return {
    name,
    period: 'lifetime',
    values: [{ value }],
    title: name,
    description: `The media's ${name}.`,
    id: `${mediaId}/insights/${name}/lifetime`,
  };
}

/**
 * GET /{media-id}/insights?metric=…: one media per request (the path names it), each metric by
 * Instagram's name, only those its product type answers; a deleted media is 100/33, a story seen
 * by fewer than 5 accounts code 10, a story older than 24 hours an empty data set.
 */
export const mediaInsights: Handler<ApiContext> = (context): Reply => {
  const id = context.params.id ?? '';
  const media = context.store.media.find((item) => item.id === id);
  if (!media || media.owner !== context.user.userId) return replies.notFound(id);
  const metrics = (context.fields.get('metric') ?? '').split(',').filter(Boolean);
  if (metrics.length === 0) return replies.badParameter('(#100) The parameter metric is required.');
  for (const metric of metrics) {
    if (DEPRECATED.has(metric)) {
      return replies.badParameter(`(#100) ${metric} metric is no longer supported for this media.`);
    }
    if (!KNOWN.has(metric)) {
      return replies.badParameter(
        `(#100) metric[0] must be one of the following values: ${[...KNOWN].join(', ')}`,
      );
    }
    if (!METRICS_BY_TYPE[media.productType].includes(metric)) {
      return replies.badParameter(
        `(#100) The Media Insights API does not support the ${metric} metric for this media product type.`,
      );
    }
  }
  const now = context.settings.now();
  if (media.productType === 'STORY' && now - media.timestamp > DAY_MS) {
    return { status: 200, json: { data: [] } };
  }
  const values = fakeInsightsAt(media, now);
  if (media.productType === 'STORY' && (values.views ?? 0) < STORY_MIN_VIEWERS) {
    return graphError(10, '(#10) Not enough viewers for the media to show insights');
  }
  return {
    status: 200,
    json: { data: metrics.map((metric) => insight(id, metric, values[metric] ?? 0)) },
  };
};

/** The account's follower count at `now`: it grows by two an hour from the fake's start. */
export function fakeFollowersAt(base: number, startedAt: number, now: number): number {
  return base + 2 * Math.floor(Math.max(0, now - startedAt) / HOUR_MS);
}
