import type { NetworkQuotaReading } from '../../domain/account-quotas.js';
import { rawCodeOf, ThreadsStepFailed } from './errors.js';
import { type GraphContext, publishingLimit, recentPosts } from './graph.js';
import { THREADS_PUBLISH_WINDOW_SECONDS } from './limits.js';

/** When the window's oldest post cannot be read, try again in an hour. */
const FALLBACK_RETRY_SECONDS = 60 * 60;

/**
 * Fails the post `rate_limited` when the account has used its rolling 24-hour allowance
 * (`threads_publishing_limit`, threads.md §8): 250 posts, or 1,000 replies for a reply (a thread's
 * later posts, a post with replyToId), with the time until the window's oldest leaves it, so
 * nothing is made that cannot be published. A limit that cannot be read does not stop the post:
 * `threads_publish` enforces it anyway (mapped the same way). The posts' reading goes to `record`
 * (the worker keeps it for the account read).
 */
export async function assertRoomToPublish(
  context: GraphContext,
  reply: boolean,
  now: () => number,
  record?: (reading: NetworkQuotaReading) => Promise<void>,
): Promise<void> {
  const limit = await publishingLimit(context);
  if (limit) await record?.({ ...limit.posts, readAt: new Date(now()).toISOString() });
  const usage = reply ? limit?.replies : limit?.posts;
  if (!usage || usage.used < usage.total) return;
  const windowSeconds = usage.windowSeconds || THREADS_PUBLISH_WINDOW_SECONDS;
  const nowSeconds = Math.floor(now() / 1000);
  let retryAfterSeconds = FALLBACK_RETRY_SECONDS;
  try {
    const recent = await recentPosts(context, reply ? 'replies' : 'threads', nowSeconds - windowSeconds);
    const times = (recent ?? [])
      .map((post) => (post.timestamp ? Date.parse(post.timestamp) / 1000 : Number.NaN))
      .filter((seconds) => Number.isFinite(seconds) && seconds > nowSeconds - windowSeconds);
    if (times.length > 0)
      retryAfterSeconds = Math.max(1, Math.ceil(Math.min(...times) + windowSeconds - nowSeconds));
  } catch {
    // The window's start is a nicety: the fallback stands.
  }
  throw new ThreadsStepFailed({
    kind: 'failed',
    failure: 'rate_limited',
    code: reply ? 'REPLY_LIMIT_REACHED' : 'PUBLISH_LIMIT_REACHED',
    message: reply
      ? `The account has published its ${usage.total} Threads replies of the last 24 hours; the next can go when the oldest leaves the window.`
      : `The account has published its ${usage.total} Threads posts of the last 24 hours; the next can go when the oldest leaves the window.`,
    platformRawCode: rawCodeOf({ status: 200, code: 9 }),
    retryAfterSeconds,
  });
}
