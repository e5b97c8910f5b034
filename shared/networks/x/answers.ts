import * as z from 'zod';

/**
 * The parts of X's answers the connector reads (x-api-v2-openapi.json), as loose objects: X adds
 * fields freely, and an answer without what we need is treated as no usable answer.
 */

const id = z.string().regex(/^[0-9]{1,19}$/);

/** RFC 7807-style problem (twitter.md §5), with the older `errors[]` list some answers carry. */
export const problemAnswer = z.looseObject({
  title: z.string().optional(),
  detail: z.string().optional(),
  type: z.string().optional(),
  errors: z
    .array(
      z.looseObject({
        message: z.string().optional(),
        detail: z.string().optional(),
        title: z.string().optional(),
        type: z.string().optional(),
        code: z.union([z.number(), z.string()]).optional(),
      }),
    )
    .optional(),
});
export type ProblemAnswer = z.output<typeof problemAnswer>;

/** POST /2/tweets 201. */
export const createdTweetAnswer = z.looseObject({ data: z.looseObject({ id }) });

/** `processing_info` of finalize and STATUS: pending → in_progress → succeeded | failed. */
export const processingInfo = z.looseObject({
  state: z.string(),
  check_after_secs: z.number().optional(),
  progress_percent: z.number().optional(),
  error: z
    .looseObject({ code: z.number().optional(), name: z.string().optional(), message: z.string().optional() })
    .optional(),
});
export type ProcessingInfo = z.output<typeof processingInfo>;

/** initialize, finalize and STATUS answers. */
export const mediaAnswer = z.looseObject({
  data: z.looseObject({ id, media_key: z.string().optional(), processing_info: processingInfo.optional() }),
});

export const timelineTweet = z.looseObject({
  id,
  text: z.string(),
  created_at: z.string().optional(),
  attachments: z
    .looseObject({ media_keys: z.array(z.string()).optional(), poll_ids: z.array(z.string()).optional() })
    .optional(),
  referenced_tweets: z.array(z.looseObject({ type: z.string(), id })).optional(),
  community_id: z.string().optional(),
});
export type TimelineTweet = z.output<typeof timelineTweet>;

/** GET /2/users/{id}/tweets: `data` is absent when nothing matched. */
export const timelineAnswer = z.looseObject({
  data: z.array(timelineTweet).optional(),
  meta: z.looseObject({ next_token: z.string().optional() }).optional(),
});

/** GET /2/users/me?user.fields=profile_image_url. */
export const userAnswer = z.looseObject({
  data: z.looseObject({
    id,
    username: z.string().min(1),
    name: z.string(),
    profile_image_url: z.string().optional(),
  }),
});

const publicMetrics = z.record(z.string(), z.unknown());

/**
 * GET /2/tweets?ids=…&tweet.fields=public_metrics: the posts X has in `data`, and each id it could
 * not give in `errors` (a deleted post: `resource-not-found`, its id in `resource_id` and `value`).
 * Either may be absent.
 */
export const postsMetricsAnswer = z.looseObject({
  data: z.array(z.looseObject({ id, public_metrics: publicMetrics.optional() })).optional(),
  errors: z
    .array(
      z.looseObject({
        type: z.string().optional(),
        resource_id: z.string().optional(),
        value: z.string().optional(),
      }),
    )
    .optional(),
});
export type PostsMetricsAnswer = z.output<typeof postsMetricsAnswer>;

/** GET /2/users/me?user.fields=public_metrics. */
export const userMetricsAnswer = z.looseObject({
  data: z.looseObject({ id, public_metrics: publicMetrics }),
});
