import * as z from 'zod';
import {
  ACCOUNT_METRIC_NAMES,
  type AccountMetricName,
  POST_METRIC_NAMES,
  type PostMetricName,
} from '../../domain/metrics.js';
import { PLATFORMS } from '../../domain/platforms.js';
import { isoTimestamp } from '../common-schemas.js';

/** Each post metric in a few words (docs/metrics.md has the networks' own names for each). */
const POST_METRIC_MEANINGS: Readonly<Record<PostMetricName, string>> = {
  impressions: 'Times the post was shown.',
  reach: 'Distinct accounts that saw it.',
  views: 'Plays or views.',
  likes: 'Likes and reactions.',
  comments: 'Comments and replies.',
  shares: 'Reposts and shares.',
  saves: 'Saves and bookmarks.',
  clicks: 'Link or profile clicks.',
  quotes: 'Quotes.',
  watchTimeSeconds: 'Total watch time, seconds.',
  averageViewPercent: 'Average share of the video watched, 0–100.',
};

const ACCOUNT_METRIC_MEANINGS: Readonly<Record<AccountMetricName, string>> = {
  followers: 'Followers or subscribers.',
  following: 'Accounts it follows.',
  posts: 'Posts or videos on the account.',
  views: 'Total views of its content.',
  likes: 'Total likes of its content.',
};

function valuesSchema<N extends string>(names: readonly N[], meanings: Readonly<Record<N, string>>) {
  const shape = Object.fromEntries(
    names.map((name) => [name, z.number().nonnegative().optional().describe(meanings[name])]),
  ) as Record<N, z.ZodOptional<z.ZodNumber>>;
  return z
    .object(shape)
    .describe('Only the fields the network reports are present: an absent field is not reported, never 0.');
}

export const postMetricValues = valuesSchema(POST_METRIC_NAMES, POST_METRIC_MEANINGS).meta({
  id: 'PostMetricValues',
});
export const accountMetricValues = valuesSchema(ACCOUNT_METRIC_NAMES, ACCOUNT_METRIC_MEANINGS).meta({
  id: 'AccountMetricValues',
});

const collectedAt = isoTimestamp.describe('When the service read them.');

/** Why the last collection gave no numbers; null when it did. */
export const metricsProblem = z
  .object({
    failure: z
      .enum(['missing_scopes', 'not_found', 'rate_limited', 'auth_failed', 'unavailable'])
      .describe(
        'missing_scopes: reconnect to grant them; not_found: deleted at the network, collection stopped; rate_limited or unavailable: tried again at the next collection; auth_failed: the account needs a reconnect.',
      ),
    at: isoTimestamp,
    missingScopes: z.array(z.string()).optional().describe('missing_scopes: the permissions lacking.'),
  })
  .nullable()
  .describe("The last collection's failure, if it failed; cleared by the next reading.");

export const postMetricsSchema = z
  .object({
    postId: z.string(),
    platform: z.enum(PLATFORMS),
    collectedAt,
    metrics: postMetricValues,
    history: z
      .array(z.object({ collectedAt, metrics: postMetricValues }))
      .describe('Every reading, oldest first; the last is the one above.'),
    nextCollectionAt: isoTimestamp
      .nullable()
      .describe(
        'When the next collection is due; null once the schedule has ended (30 days after publishing).',
      ),
    problem: metricsProblem,
  })
  .meta({ id: 'PostMetrics' });

export const accountMetricsSchema = z
  .object({
    accountId: z.string(),
    platform: z.enum(PLATFORMS),
    collectedAt,
    metrics: accountMetricValues,
    history: z
      .array(z.object({ collectedAt, metrics: accountMetricValues }))
      .describe('One reading a day for the last 90 days, oldest first; the last is the one above.'),
    nextCollectionAt: isoTimestamp.nullable().describe('When the next daily reading is due.'),
    problem: metricsProblem,
  })
  .meta({ id: 'AccountMetrics' });
