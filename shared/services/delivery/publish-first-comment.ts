import {
  COMMENT_LEASE_MS,
  commentError,
  commentRetryDelaySeconds,
  MAX_COMMENT_ATTEMPTS,
  MAX_COMMENT_PENDING_CHECKS,
} from '../../domain/first-comment.js';
import { canonicalJson } from '../../domain/idempotency.js';
import type { FirstComment, Post, PostError } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';
import type { AccessCredentials, CommentOutcome, Connector } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import { makeAuthorise } from './authorise.js';
import { callWithDeadline, deadlineOutcome } from './call-with-deadline.js';
import { CONNECTOR_TIMEOUT_MS, type DeliveryDeps, LOOKUP_TIMEOUT_MS } from './delivery-deps.js';
import { decodeProgress, encodeProgress } from './progress.js';
import { makeResolveMedia } from './resolve-media.js';
import { makeWriteIfUnchanged } from './write-if-unchanged.js';

export type CommentResult =
  | 'comment_published'
  | 'comment_queued'
  | 'comment_failed'
  | 'comment_uncertain'
  | 'dropped';

type NamedPost = Post & { platformPostId: string; firstComment: FirstComment };

/** What a comment's delivery step found out, for its one write. */
type CommentVerdict =
  | { kind: 'published'; platformCommentId: string; platformCommentUrl?: string }
  | { kind: 'retry'; error: PostError; delaySeconds: number; progress?: string }
  | { kind: 'pending'; progress: string; checkAfterSeconds: number }
  | { kind: 'failed'; error: PostError }
  | { kind: 'uncertain'; error: PostError };

/**
 * What tells one hold of a comment from another: its status and the claim's counts and times (not
 * the progress the call in hand may add).
 */
function claimOf(comment: FirstComment | undefined): string {
  if (!comment) return '';
  return canonicalJson([comment.status, comment.attempts, comment.startedAt, comment.nextAttemptAt]);
}

/** How often a comment's write is tried again over writes that left the comment as it was. */
const COMMENT_WRITE_TRIES = 5;

const UNCERTAIN_MESSAGE =
  'The comment call ended without an answer and the network cannot say whether it has the comment; it is not posted again. Check the post.';

/**
 * A published post's first comment (docs/first-comment.md), due now:
 * 1. claim it: queued → publishing, until COMMENT_LEASE_MS from now (a worker that dies leaves it
 *    publishing; the message at the lease's end finds it so and looks it up first);
 * 2. the account's fresh access token, and the comment's media;
 * 3. a comment an earlier worker may have made is looked up first: found, it is published; not
 *    there, it is made; no answer, it is `uncertain` and never made again;
 * 4. the connector's publishComment, with a time-out; an unknown outcome is looked up the same way;
 * 5. one conditional write: published, queued again (a retry with backoff, a check while the network
 *    processes it), failed, or uncertain. The post itself is never touched: it stays published.
 */
export function makePublishFirstComment(
  deps: Pick<
    DeliveryDeps,
    | 'posts'
    | 'tenancy'
    | 'secrets'
    | 'networks'
    | 'clock'
    | 'metrics'
    | 'connectorFor'
    | 'bytes'
    | 'mediaUrls'
    | 'connectorTimeoutMs'
    | 'lookupTimeoutMs'
    | 'fetchMedia'
    | 'storage'
    | 'videoProbe'
  >,
) {
  const authorise = makeAuthorise(deps);
  const write = makeWriteIfUnchanged(deps);
  const resolveMedia = makeResolveMedia(deps);
  const nowIso = () => new Date(deps.clock.now()).toISOString();

  /**
   * Writes the post with `next` as its comment, if its comment is still as read: a write that
   * changed only the rest of the post meanwhile (a metrics collection, a refresh) is read again
   * and kept; one that changed the comment (another worker) wins, and this one drops its work.
   */
  const writeComment = async (read: Post, next: FirstComment): Promise<Post | undefined> => {
    let current: Post | undefined = read;
    for (let tries = 0; tries < COMMENT_WRITE_TRIES && current; tries++) {
      const written = await write(current, { ...current, firstComment: next });
      if (written) return written;
      current = await deps.posts.get(read.tenantId, read.workspaceId, read.postId);
      if (claimOf(current?.firstComment) !== claimOf(read.firstComment)) return undefined;
    }
    return undefined;
  };

  const settle = async (post: NamedPost, verdict: CommentVerdict, log: Logger): Promise<CommentResult> => {
    const comment = post.firstComment;
    const { nextAttemptAt: _due, progress: _progress, ...base } = comment;
    const next: FirstComment = (() => {
      switch (verdict.kind) {
        case 'published':
          return {
            ...withoutError(base),
            status: 'published',
            platformCommentId: verdict.platformCommentId,
            ...(verdict.platformCommentUrl && { platformCommentUrl: verdict.platformCommentUrl }),
            publishedAt: nowIso(),
          };
        case 'retry':
          return {
            ...base,
            status: 'queued',
            error: verdict.error,
            nextAttemptAt: new Date(deps.clock.now() + verdict.delaySeconds * 1000).toISOString(),
            ...((verdict.progress ?? comment.progress) && { progress: verdict.progress ?? comment.progress }),
          };
        case 'pending':
          return {
            ...base,
            status: 'queued',
            pendingChecks: (comment.pendingChecks ?? 0) + 1,
            nextAttemptAt: new Date(deps.clock.now() + verdict.checkAfterSeconds * 1000).toISOString(),
            progress: verdict.progress,
          };
        case 'failed':
        case 'uncertain':
          return { ...base, status: verdict.kind, error: verdict.error };
      }
    })();
    const written = await writeComment(post, next);
    if (!written) return 'dropped';
    deps.metrics.count('FirstComments', { platform: post.platform, outcome: verdict.kind });
    log.info('first comment settled', {
      outcome: verdict.kind,
      ...('error' in verdict && { code: verdict.error.code }),
    });
    switch (verdict.kind) {
      case 'published':
        return 'comment_published';
      case 'failed':
        return 'comment_failed';
      case 'uncertain':
        return 'comment_uncertain';
      default:
        return 'comment_queued';
    }
  };

  return async function publishFirstComment(current: Post, log: Logger): Promise<CommentResult> {
    const comment = current.firstComment;
    if (!comment || !current.platformPostId) return 'dropped';
    if (comment.status !== 'queued' && comment.status !== 'publishing') return 'dropped';
    const commentLog = log.with({ firstComment: true });
    const interrupted = comment.status === 'publishing';
    const account = await deps.tenancy.getAccount(current.tenantId, current.workspaceId, current.accountId);
    const connector = account && deps.connectorFor(account);

    // 1. claim
    const checking = !interrupted && comment.pendingChecks !== undefined && comment.progress !== undefined;
    const claimed = await writeComment(current, {
      ...comment,
      status: 'publishing',
      attempts: interrupted || checking ? comment.attempts : comment.attempts + 1,
      startedAt: comment.startedAt ?? nowIso(),
      nextAttemptAt: new Date(deps.clock.now() + COMMENT_LEASE_MS).toISOString(),
    });
    if (!claimed?.firstComment || !claimed.platformPostId) return 'dropped';
    const post = claimed as NamedPost;

    if (account?.status !== 'connected' || !connector?.publishComment) {
      return settle(post, { kind: 'failed', error: cannotComment(account, connector) }, commentLog);
    }
    // 2. credentials and media
    const authorised = await authorise(account, AbortSignal.timeout(30_000), commentLog);
    if ('settle' in authorised) {
      const verdict = authorised.settle;
      const error =
        verdict.kind === 'fail'
          ? verdict.error
          : commentError('TOKEN_REFRESH_FAILED', 'The account could not be authorised just now.', true);
      return settle(post, retryOrFail(post.firstComment, error), commentLog);
    }
    const credentials = authorised.proceed.credentials;

    // 3. an earlier call whose outcome is unknown is looked up before anything is made
    if (interrupted) {
      const found = await lookUp(connector, post, account, credentials, commentLog);
      if (found) return settle(post, found, commentLog);
    }

    const context = await deps.posts.loadContext(
      post.tenantId,
      post.workspaceId,
      post.accountId,
      (post.firstComment.media ?? []).flatMap((ref) => (ref.id ? [ref.id] : [])),
    );
    const media = await resolveMedia.comment(post, context);
    if ('settle' in media) {
      const verdict = media.settle;
      const error =
        verdict.kind === 'fail'
          ? verdict.error
          : commentError('MEDIA_FETCH_FAILED', "The comment's media could not be fetched.", true);
      return settle(post, retryOrFail(post.firstComment, error), commentLog);
    }

    // 4. the call
    const progress = decodeProgress(post.firstComment.progress);
    const publishComment = connector.publishComment.bind(connector);
    const outcome = await callWithDeadline<CommentOutcome>(
      deps.connectorTimeoutMs ?? CONNECTOR_TIMEOUT_MS,
      (signal) =>
        publishComment({
          post,
          account,
          comment: { text: post.firstComment.text, media: media.proceed },
          attempt: post.firstComment.attempts,
          clientReference: `${post.postId}-comment`,
          bytes: deps.bytes,
          ...(deps.mediaUrls && { mediaUrls: deps.mediaUrls }),
          signal,
          ...(credentials && { credentials }),
          ...(progress && { progress }),
        }),
      (reason) => deadlineOutcome(reason),
      commentLog,
    );

    // 5. its outcome
    const kept =
      outcome.kind !== 'published' && outcome.progress ? encodeProgress(outcome.progress) : undefined;
    const progressText = kept === 'too_large' ? undefined : kept;
    switch (outcome.kind) {
      case 'published':
        return settle(
          post,
          {
            kind: 'published',
            platformCommentId: outcome.platformPostId,
            ...(outcome.platformPostUrl && { platformCommentUrl: outcome.platformPostUrl }),
          },
          commentLog,
        );
      case 'pending': {
        if ((post.firstComment.pendingChecks ?? 0) >= MAX_COMMENT_PENDING_CHECKS || !progressText) {
          const error = commentError(
            'COMMENT_PROCESSING_TIMEOUT',
            'The network kept processing the comment for too long; it was given up.',
            false,
          );
          return settle(post, { kind: 'failed', error }, commentLog);
        }
        return settle(
          post,
          { kind: 'pending', progress: progressText, checkAfterSeconds: outcome.checkAfterSeconds },
          commentLog,
        );
      }
      case 'failed': {
        const retryable = outcome.failure === 'transient' || outcome.failure === 'rate_limited';
        const error = commentError(outcome.code, outcome.message, retryable, outcome.platformRawCode);
        const withProgress = progressText
          ? { ...post, firstComment: { ...post.firstComment, progress: progressText } }
          : post;
        return settle(
          withProgress,
          retryable
            ? retryOrFail(post.firstComment, error, outcome.retryAfterSeconds, progressText)
            : { kind: 'failed', error },
          commentLog,
        );
      }
      case 'awaiting_creator': {
        // A post's outcome only (TikTok's inbox): a connector answering it for a comment is at fault.
        const error = commentError(
          'CONNECTOR_BAD_OUTCOME',
          'The connector answered the comment with an outcome only a post may have.',
          false,
        );
        return settle(post, { kind: 'failed', error }, commentLog);
      }
      case 'unknown': {
        const asked = progressText
          ? { ...post, firstComment: { ...post.firstComment, progress: progressText } }
          : post;
        const found = await lookUp(connector, asked, account, credentials, commentLog);
        return settle(
          asked,
          found ?? retryOrFail(post.firstComment, notThere(), undefined, progressText),
          commentLog,
        );
      }
    }
  };

  /**
   * Whether the network has the comment an earlier call may have made: a verdict when it answers
   * (found: published; no answer: uncertain), undefined when it says the comment is not there.
   */
  async function lookUp(
    connector: Connector,
    post: NamedPost,
    account: Account,
    credentials: AccessCredentials | undefined,
    log: Logger,
  ): Promise<CommentVerdict | undefined> {
    const uncertain: CommentVerdict = {
      kind: 'uncertain',
      error: commentError('comment_uncertain', UNCERTAIN_MESSAGE, false),
    };
    if (!connector.findComment) return uncertain;
    const findComment = connector.findComment.bind(connector);
    const progress = decodeProgress(post.firstComment.progress);
    const found = await callWithDeadline(
      deps.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS,
      (signal) =>
        findComment({
          post,
          account,
          comment: { text: post.firstComment.text },
          clientReference: `${post.postId}-comment`,
          since: post.firstComment.startedAt ?? post.publishedAt ?? nowIso(),
          signal,
          ...(credentials && { credentials }),
          ...(progress && { progress }),
        }),
      () => ({ kind: 'unknown' as const, message: 'The look-up did not answer in time.' }),
      log,
    );
    log.info('looked the first comment up on the network', { found: found.kind });
    if (found.kind === 'found') {
      return {
        kind: 'published',
        platformCommentId: found.platformPostId,
        platformCommentUrl: found.platformPostUrl,
      };
    }
    return found.kind === 'not_found' ? undefined : uncertain;
  }
}

/** Another call while calls remain (backoff, or the network's own wait); failed after the last. */
function retryOrFail(
  comment: FirstComment,
  error: PostError,
  retryAfterSeconds?: number,
  progress?: string,
): CommentVerdict {
  if (!error.retryable || comment.attempts >= MAX_COMMENT_ATTEMPTS) return { kind: 'failed', error };
  return {
    kind: 'retry',
    error,
    delaySeconds: commentRetryDelaySeconds(comment.attempts, retryAfterSeconds),
    ...(progress && { progress }),
  };
}

function notThere(): PostError {
  return commentError(
    'COMMENT_NOT_MADE',
    'The comment call ended without an answer and the network does not have the comment; it will be tried again.',
    true,
  );
}

function withoutError(comment: Omit<FirstComment, 'nextAttemptAt' | 'progress'>) {
  const { error: _error, ...rest } = comment;
  return rest;
}

/** Why no call can be made: the account is gone or disconnected, or the network takes no comments. */
function cannotComment(account: Account | undefined, connector: Connector | undefined): PostError {
  if (account?.status !== 'connected') {
    return {
      origin: 'service',
      code: 'account_disconnected',
      message: 'The account was disconnected before the comment was made; reconnect it and comment by hand.',
      retryable: false,
    };
  }
  return {
    origin: 'service',
    code: connector ? 'comment_not_supported' : 'connector_unavailable',
    message: connector
      ? `${account.platform} takes no first comment on this deployment.`
      : `No connector is configured for ${account.platform} on this deployment.`,
    retryable: false,
  };
}
