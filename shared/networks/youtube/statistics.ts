import * as z from 'zod';
import {
  ACCOUNT_METRIC_NAMES,
  type AccountMetricValues,
  cleanMetricValues,
  POST_METRIC_NAMES,
  type PostMetricValues,
} from '../../domain/metrics.js';

/**
 * Google sends its counts as strings (unsigned 64-bit in decimal, videos and channels resources):
 * a count past 2^53 loses its last digits as a number, which no count of views reaches.
 */
const Count = z
  .string()
  .regex(/^\d+$/)
  .transform((digits) => Number(digits));

export const VideoStatistics = z.object({
  viewCount: Count.optional(),
  // Absent where the owner hid the video's likes or turned its comments off.
  likeCount: Count.optional(),
  commentCount: Count.optional(),
});

export const VideoStatisticsList = z.object({
  items: z.array(z.object({ id: z.string().min(1), statistics: VideoStatistics.optional() })).default([]),
});

export const ChannelStatisticsList = z.object({
  items: z
    .array(
      z.object({
        statistics: z
          .object({
            viewCount: Count.optional(),
            subscriberCount: Count.optional(),
            hiddenSubscriberCount: z.boolean().optional(),
            videoCount: Count.optional(),
          })
          .optional(),
      }),
    )
    .default([]),
});

/**
 * A video's `statistics` in our vocabulary. favoriteCount (always 0 since 2015) and dislikeCount
 * (private since December 2021) are left out: neither says how the video did.
 */
export function postMetricsOf(statistics: z.infer<typeof VideoStatistics> | undefined): PostMetricValues {
  return cleanMetricValues(
    { views: statistics?.viewCount, likes: statistics?.likeCount, comments: statistics?.commentCount },
    POST_METRIC_NAMES,
  );
}

type ChannelStatistics = NonNullable<z.infer<typeof ChannelStatisticsList>['items'][number]['statistics']>;

/**
 * A channel's `statistics` in our vocabulary. A hidden subscriber count is not reported (the owner
 * chose not to show it); YouTube rounds a shown one down to three significant figures.
 */
export function accountMetricsOf(statistics: ChannelStatistics | undefined): AccountMetricValues {
  return cleanMetricValues(
    {
      followers: statistics?.hiddenSubscriberCount ? undefined : statistics?.subscriberCount,
      views: statistics?.viewCount,
      posts: statistics?.videoCount,
    },
    ACCOUNT_METRIC_NAMES,
  );
}
