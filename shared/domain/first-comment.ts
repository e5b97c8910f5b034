import type { FirstComment, FirstCommentShape, Post, PostError } from './posts.js';

/**
 * A post's first comment through its life (docs/first-comment.md): waiting while the post is not
 * published; queued once it is, and for each retry or check; publishing while a worker makes it;
 * then published, failed or uncertain. Its failure never touches the post's own status.
 */

/** Calls a comment gets (a refusal that may pass, a rate limit, a look-up that found nothing). */
export const MAX_COMMENT_ATTEMPTS = 4;
/** Checks while the network processes a comment (a Threads video reply) before it is given up. */
export const MAX_COMMENT_PENDING_CHECKS = 30;
/** How long a worker may hold a comment before the next message takes it for dead and looks it up. */
export const COMMENT_LEASE_MS = 2 * 60_000;

/** A new (or edited) first comment, before its post is published. */
export function waitingComment(shape: FirstCommentShape): FirstComment {
  return {
    text: shape.text,
    ...(shape.media && shape.media.length > 0 && { media: shape.media }),
    status: 'waiting',
    attempts: 0,
  };
}

/** What the caller gave, without its delivery state (to tell an edit from an unchanged comment). */
export function commentShape(comment: FirstComment | undefined): FirstCommentShape | undefined {
  if (!comment) return undefined;
  return { text: comment.text, ...(comment.media && { media: comment.media }) };
}

/** The post is published and named: its waiting comment is due now. */
export function commentDueOnPublish(post: Post, nowIso: string): FirstComment | undefined {
  const comment = post.firstComment;
  if (comment?.status !== 'waiting') return comment;
  return { ...comment, status: 'queued', nextAttemptAt: nowIso };
}

/** Whether a published post's comment wants a worker at `nextAttemptAt` (due, or held by a worker that may have died). */
export function commentWake(post: Post): string | undefined {
  const comment = post.firstComment;
  if (post.status !== 'published' || !post.platformPostId || !comment) return undefined;
  return comment.status === 'queued' || comment.status === 'publishing' ? comment.nextAttemptAt : undefined;
}

/** Back off between a comment's calls: 30 s, 2 min, 8 min; or what the network asked. */
export function commentRetryDelaySeconds(attempts: number, retryAfterSeconds?: number): number {
  const backoff = 30 * 4 ** Math.max(0, attempts - 1);
  return Math.max(backoff, retryAfterSeconds ?? 0);
}

/** The comment's final error, in our words (never the network's raw body). */
export function commentError(
  code: string,
  message: string,
  retryable: boolean,
  platformRawCode?: string,
): PostError {
  return { origin: 'platform', code, message, retryable, ...(platformRawCode && { platformRawCode }) };
}
