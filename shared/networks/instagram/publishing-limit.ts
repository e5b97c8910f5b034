import type { NetworkQuotaReading } from '../../domain/account-quotas.js';
import { InstagramStepFailed, rawCodeOf } from './errors.js';
import { type GraphContext, publishingLimit, recentMedia } from './graph.js';
import { INSTAGRAM_PUBLISH_WINDOW_SECONDS } from './limits.js';

/** When the window's oldest post cannot be read, try again in an hour. */
const FALLBACK_RETRY_SECONDS = 60 * 60;

/**
 * Fails the post `rate_limited` (PUBLISH_LIMIT_REACHED) when the account has used its rolling
 * 24-hour publishing limit (`content_publishing_limit`, instagram.md §2), with the time until the
 * oldest post in the window leaves it (read from the account's recent media), so nothing is made
 * that cannot be published. A limit that cannot be read does not stop the post: `media_publish`
 * enforces it anyway (2207042, mapped the same way). Each reading goes to `record` (the worker keeps
 * it for the account read).
 */
export async function assertRoomToPublish(
  context: GraphContext,
  now: () => number,
  record?: (reading: NetworkQuotaReading) => Promise<void>,
): Promise<void> {
  const limit = await publishingLimit(context);
  if (limit) await record?.({ ...limit, readAt: new Date(now()).toISOString() });
  if (!limit || limit.used < limit.total) return;
  const windowSeconds = limit.windowSeconds || INSTAGRAM_PUBLISH_WINDOW_SECONDS;
  const nowSeconds = Math.floor(now() / 1000);
  let retryAfterSeconds = FALLBACK_RETRY_SECONDS;
  try {
    const recent = await recentMedia(context, 'media', nowSeconds - windowSeconds);
    const times = (recent ?? [])
      .map((media) => (media.timestamp ? Date.parse(media.timestamp) / 1000 : Number.NaN))
      .filter((seconds) => Number.isFinite(seconds) && seconds > nowSeconds - windowSeconds);
    if (times.length > 0)
      retryAfterSeconds = Math.max(1, Math.ceil(Math.min(...times) + windowSeconds - nowSeconds));
  } catch {
    // The window's start is a nicety: the fallback stands.
  }
  throw new InstagramStepFailed({
    kind: 'failed',
    failure: 'rate_limited',
    code: 'PUBLISH_LIMIT_REACHED',
    message: `The account has published its ${limit.total} Instagram posts of the last 24 hours; the next can go when the oldest leaves the window.`,
    platformRawCode: rawCodeOf({ status: 200, code: 9, subcode: 2207042 }),
    retryAfterSeconds,
  });
}
