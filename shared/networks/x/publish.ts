import type { Post } from '../../domain/posts.js';
import type { PublishOutcome, PublishRequest } from '../../ports/connector.js';
import type { XCaller } from './api.js';
import { localFailure } from './errors.js';
import { replySettingsOf } from './options.js';
import { postTweets, type XPostSettings } from './post-items.js';
import { readProgress } from './progress.js';
import { firstParentOf, xItems } from './thread-items.js';

export type XPublishSettings = XPostSettings;

/**
 * Publishes a post, or the rest of it, on X (twitter.md §1–2): its items (a thread's, in order; one
 * otherwise) posted by post-items.ts, each a reply to the one before, the first carrying the post's
 * options (a reply to the post the user named, a quote, a Community, a poll) and its link in its
 * text. Every step done goes into the progress handed back with `pending`, `failed` or `unknown`,
 * so a later attempt resumes after it and never posts an item twice.
 * The post's id and URL on X are those of its first tweet.
 */
export async function publishToX(
  settings: XPublishSettings,
  request: PublishRequest,
): Promise<PublishOutcome> {
  const { post, account, signal } = request;
  if (!request.credentials) return localFailure('auth_revoked', 'TOKEN_REVOKED');
  const caller: XCaller = {
    apiUrl: settings.apiUrl,
    accessToken: request.credentials.accessToken,
    signal,
    ...(settings.fetch && { fetch: settings.fetch }),
  };
  const progress = readProgress(request.progress);
  const replySettings = replySettingsOf(post);
  const firstParent = firstParentOf(post);
  const stopped = await postTweets(
    settings,
    {
      caller,
      account,
      bytes: request.bytes,
      items: xItems(post, request.media),
      ...(firstParent && { firstParent }),
      ...(replySettings && { replySettings }),
      // An earlier attempt may have posted an item and lost the answer (a time-out, a worker that
      // stopped): until a look-up finds an item missing, each is looked for before it is posted.
      notFirstTry: request.attempt > 1 || request.progress !== undefined,
      dueAt: dueAt(post),
    },
    progress,
  );
  if (stopped) return stopped;

  const rootId = progress.posted[0];
  if (!rootId) {
    // Only a post with no items gets here; the rules refuse such a post long before.
    return localFailure('permanent', 'PLATFORM_REJECTED');
  }
  return { kind: 'published', platformPostId: rootId, platformPostUrl: tweetUrl(account.handle, rootId) };
}

/** The earliest the post can have gone out: when it was due (scheduled), else when it was made. */
export function dueAt(post: Pick<Post, 'createdAt' | 'scheduledAt'>): string {
  const created = Date.parse(post.createdAt);
  const scheduled = post.scheduledAt ? Date.parse(post.scheduledAt) : Number.NaN;
  return new Date(Number.isNaN(scheduled) ? created : Math.max(created, scheduled)).toISOString();
}

/** X's address of a tweet; `i/web/status` works without the handle. */
export function tweetUrl(handle: string, tweetId: string): string {
  const username = handle.replace(/^@/, '');
  return username
    ? `https://x.com/${encodeURIComponent(username)}/status/${tweetId}`
    : `https://x.com/i/web/status/${tweetId}`;
}
