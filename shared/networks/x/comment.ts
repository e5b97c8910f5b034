import type {
  CommentLookupOutcome,
  CommentLookupRequest,
  CommentOutcome,
  CommentRequest,
} from '../../ports/connector.js';
import type { XCaller } from './api.js';
import { type FailedOutcome, localFailure, X_MESSAGES } from './errors.js';
import { makeTimelineSearch } from './look-up.js';
import { postTweets, type XPostSettings } from './post-items.js';
import { readProgress } from './progress.js';
import { tweetUrl } from './publish.js';
import type { XItem } from './thread-items.js';

/**
 * A post's first comment on X (research first-comment-and-link-previews.md §1.1): a reply by the
 * same account to the post, with media uploaded as a post's. X keeps no client reference, so an
 * attempt whose answer was lost is found again on the account's timeline (look-up.ts): a reply to
 * the post with the comment's text and media count, made since the first attempt began.
 */
export async function publishCommentOnX(
  settings: XPostSettings,
  request: CommentRequest,
): Promise<CommentOutcome> {
  if (!request.credentials) return localFailure('auth_revoked', 'TOKEN_REVOKED');
  const progress = readProgress(request.progress);
  const stopped = await postTweets(
    settings,
    {
      caller: callerOf(settings, request.credentials.accessToken, request.signal),
      account: request.account,
      bytes: request.bytes,
      items: [commentItem(request)],
      firstParent: request.post.platformPostId,
      notFirstTry: request.attempt > 1 || request.progress !== undefined,
      // The comment comes after the post: the post's time bounds the look-up from below.
      dueAt: request.post.publishedAt ?? request.post.createdAt,
      refused: replyRefused,
    },
    progress,
  );
  if (stopped) return stopped;
  const commentId = progress.posted[0];
  if (!commentId) return localFailure('permanent', 'PLATFORM_REJECTED');
  return {
    kind: 'published',
    platformPostId: commentId,
    platformPostUrl: tweetUrl(request.account.handle, commentId),
  };
}

/**
 * Whether an attempt whose outcome is unknown made the comment: the account's replies to the post
 * since the first attempt began (`request.since`), by text and media count (find-published.ts does
 * the same for a thread's items).
 */
export async function findCommentOnX(
  settings: XPostSettings,
  request: CommentLookupRequest,
): Promise<CommentLookupOutcome> {
  if (!request.credentials) {
    return { kind: 'unknown', message: 'The X account has no access token to look the comment up with.' };
  }
  const posted = readProgress(request.progress).posted[0];
  if (posted) return found(request, posted);
  const search = makeTimelineSearch({
    caller: callerOf(settings, request.credentials.accessToken, request.signal),
    account: request.account,
    dueAt: request.since,
    now: settings.now,
    maxPages: settings.lookupPages,
  });
  const result = await search.find(
    { text: request.comment.text, mediaCount: mediaCountOf(request) },
    request.post.platformPostId,
  );
  if (result.kind === 'unknown') return { kind: 'unknown', message: result.failure.message };
  if (result.kind === 'not_found') return { kind: 'not_found' };
  return found(request, result.tweetId);
}

function found(request: CommentLookupRequest, tweetId: string): CommentLookupOutcome {
  return {
    kind: 'found',
    platformPostId: tweetId,
    platformPostUrl: tweetUrl(request.account.handle, tweetId),
  };
}

/** The comment's media count, from the post's `firstComment` (the look-up request has no media list). */
function mediaCountOf(request: CommentLookupRequest): number {
  return request.post.firstComment?.media?.length ?? 0;
}

function commentItem(request: CommentRequest): XItem {
  return {
    index: 0,
    text: request.comment.text,
    mediaCount: request.comment.media.length,
    media: request.comment.media.map((media, position) => ({ position, media })),
  };
}

/** Any refusal of the reply but a duplicate's: X's reply restrictions; the comment fails for good. */
function replyRefused(outcome: FailedOutcome): FailedOutcome {
  if (outcome.failure !== 'permanent' || outcome.code !== 'PLATFORM_FORBIDDEN') return outcome;
  return { ...outcome, code: 'REPLY_NOT_ALLOWED', message: X_MESSAGES.REPLY_NOT_ALLOWED };
}

function callerOf(settings: XPostSettings, accessToken: string, signal: AbortSignal): XCaller {
  return { apiUrl: settings.apiUrl, accessToken, signal, ...(settings.fetch && { fetch: settings.fetch }) };
}
