import * as z from 'zod';
import type {
  CommentLookupOutcome,
  CommentLookupRequest,
  CommentOutcome,
  CommentRequest,
} from '../../ports/connector.js';
import { failed, tokenMissing } from '../publish/failed-outcome.js';
import { readJson, type YouTubeApi } from './api.js';
import { type GoogleErrorFacts, readGoogleError } from './errors.js';
import { secondsUntilPacificMidnight, YOUTUBE_RATE_LIMIT_RETRY_SECONDS } from './limits.js';
import { callOnce } from './step-context.js';

/** Clock skew allowed between our record of the first attempt and YouTube's publishedAt. */
const SKEW_MS = 5 * 60 * 1000;
/** commentThreads.list returns at most 100 threads a page; a first comment is among the newest. */
const LOOK_UP_PAGE = '100';

export interface YouTubeCommentDeps {
  api: YouTubeApi;
  /** YOUTUBE_API_URL. */
  apiUrl: string;
  now: () => number;
}

/** Where a viewer finds a comment: the video's page, the comment highlighted (`lc`). */
export function youTubeCommentUrl(videoId: string, commentId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}&lc=${commentId}`;
}

const Thread = z.object({
  id: z.string().min(1),
  snippet: z
    .object({
      topLevelComment: z
        .object({
          id: z.string().min(1),
          snippet: z
            .object({
              textOriginal: z.string().optional(),
              authorChannelId: z.object({ value: z.string() }).optional(),
              publishedAt: z.string().optional(),
            })
            .optional(),
        })
        .optional(),
    })
    .optional(),
});
const ThreadList = z.object({ items: z.array(Thread).default([]) });

/** A refused comment (commentThreads.insert reference) as a failed outcome, in our words. */
function commentFailure(facts: GoogleErrorFacts, nowMs: number): Extract<CommentOutcome, { kind: 'failed' }> {
  const raw = { platformRawCode: facts.reason ?? String(facts.status) };
  const reason = facts.reason ?? '';
  if (facts.status === 401) {
    return failed('auth_rejected', 'TOKEN_REJECTED', "YouTube refused the account's access token.", raw);
  }
  if (reason === 'quotaExceeded') {
    return failed('rate_limited', 'RATE_LIMITED', "The service's daily YouTube API quota is used up.", {
      ...raw,
      retryAfterSeconds: secondsUntilPacificMidnight(nowMs),
    });
  }
  if (reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded' || facts.status === 429) {
    return failed('rate_limited', 'RATE_LIMITED', 'YouTube asked for fewer requests for a while.', {
      ...raw,
      retryAfterSeconds: YOUTUBE_RATE_LIMIT_RETRY_SECONDS,
    });
  }
  if (reason === 'insufficientPermissions' || reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') {
    return failed(
      'permanent',
      'FIRST_COMMENT_NEEDS_RECONNECT',
      'The YouTube account was connected without the youtube.force-ssl permission that commenting needs: reconnect it.',
      raw,
    );
  }
  if (reason === 'commentsDisabled') {
    return failed('permanent', 'COMMENTS_DISABLED', 'The video has its comments turned off.', raw);
  }
  if (reason === 'ineligibleAccount') {
    return failed(
      'permanent',
      'PLATFORM_PERMISSION_DENIED',
      'YouTube does not let this account comment: its YouTube account must be merged with its Google account.',
      raw,
    );
  }
  // "processingFailure … can be a transient error": tried again like a server error.
  if (facts.status >= 500 || reason === 'processingFailure') {
    return failed('transient', 'PLATFORM_ERROR', 'YouTube failed to make the comment for now.', raw);
  }
  if (facts.status === 404) {
    return failed('permanent', 'PLATFORM_REJECTED', 'YouTube no longer finds the video to comment on.', raw);
  }
  if (facts.status === 403) {
    return failed(
      'permanent',
      'PLATFORM_PERMISSION_DENIED',
      'YouTube refused the comment: the video may be private, or the account may not comment on it.',
      raw,
    );
  }
  return failed('permanent', 'PLATFORM_REJECTED', 'YouTube refused the comment as invalid.', raw);
}

/**
 * The first comment: a top-level comment by the channel on its own video (POST
 * {api}/commentThreads?part=snippet, `youtube.force-ssl`, 50 units), text only. Nothing needs
 * keeping before the call: the look-up finds it by author and text (findComment).
 */
export function makeYouTubePublishComment(deps: YouTubeCommentDeps) {
  return async function publishComment(request: CommentRequest): Promise<CommentOutcome> {
    if (!request.credentials) return tokenMissing('YouTube');
    const channelId = request.account.networkUserId;
    if (!channelId) return failed('permanent', 'ACCOUNT_UNUSABLE', 'The YouTube account has no channel id.');
    const videoId = request.post.platformPostId;
    const accessToken = request.credentials.accessToken;
    const result = await callOnce(() =>
      deps.api({
        method: 'POST',
        url: `${deps.apiUrl}/commentThreads`,
        accessToken,
        query: { part: 'snippet' },
        json: {
          snippet: {
            channelId,
            videoId,
            topLevelComment: { snippet: { textOriginal: request.comment.text } },
          },
        },
        signal: request.signal,
      }),
    );
    if (result.kind === 'not_sent')
      return failed('transient', 'PLATFORM_UNREACHABLE', 'YouTube could not be reached.');
    if (result.kind === 'no_answer') {
      return {
        kind: 'unknown',
        code: 'PLATFORM_TIMEOUT',
        message: 'YouTube did not answer the comment request.',
      };
    }
    const response = result.response;
    if (!response.ok) return commentFailure(await readGoogleError(response), deps.now());
    const parsed = Thread.safeParse(await readJson(response));
    if (!parsed.success) {
      // It was accepted (2xx), unreadably: the look-up names it.
      return {
        kind: 'unknown',
        code: 'PLATFORM_ANSWER_UNREADABLE',
        message: 'YouTube answered the comment unreadably.',
      };
    }
    const commentId = parsed.data.snippet?.topLevelComment?.id ?? parsed.data.id;
    return {
      kind: 'published',
      platformPostId: commentId,
      platformPostUrl: youTubeCommentUrl(videoId, commentId),
    };
  };
}

/**
 * Whether an attempt with no answer made the comment: the video's newest top-level comments
 * (commentThreads.list?videoId=&order=time, 1 unit) are read for one by the channel with the same
 * text, published since the first attempt began (`found`); YouTube answering without one is
 * `not_found` (the worker tries again); no readable answer is `unknown`.
 */
export function makeYouTubeFindComment(deps: YouTubeCommentDeps) {
  return async function findComment(request: CommentLookupRequest): Promise<CommentLookupOutcome> {
    if (!request.credentials) return { kind: 'unknown', message: 'The YouTube account has no access token.' };
    const videoId = request.post.platformPostId;
    const result = await callOnce(() =>
      deps.api({
        method: 'GET',
        url: `${deps.apiUrl}/commentThreads`,
        accessToken: request.credentials?.accessToken ?? '',
        query: { part: 'snippet', videoId, order: 'time', maxResults: LOOK_UP_PAGE, textFormat: 'plainText' },
        signal: request.signal,
      }),
    ).catch(() => undefined);
    if (result?.kind !== 'answered' || !result.response.ok) {
      await (result?.kind === 'answered' ? result.response.body?.cancel() : undefined);
      return { kind: 'unknown', message: "YouTube did not list the video's comments." };
    }
    const parsed = ThreadList.safeParse(await readJson(result.response));
    if (!parsed.success)
      return { kind: 'unknown', message: "YouTube listed the video's comments unreadably." };
    const since = Date.parse(request.since) - SKEW_MS;
    const text = request.comment.text.trim();
    const match = parsed.data.items.find((thread) => {
      const snippet = thread.snippet?.topLevelComment?.snippet;
      if (!snippet) return false;
      return (
        snippet.authorChannelId?.value === request.account.networkUserId &&
        snippet.textOriginal?.trim() === text &&
        (snippet.publishedAt === undefined || Date.parse(snippet.publishedAt) >= since)
      );
    });
    if (!match) return { kind: 'not_found' };
    const commentId = match.snippet?.topLevelComment?.id ?? match.id;
    return {
      kind: 'found',
      platformPostId: commentId,
      platformPostUrl: youTubeCommentUrl(videoId, commentId),
    };
  };
}
