import { authorize, charge, isReply } from './api-auth.js';
import { privacyNow } from './api-routes.js';
import { googleError, googleErrors, type Reply } from './http.js';
import { COMMENT_SCOPES, type Handler, READ_SCOPES } from './route.js';
import type { FakeComment } from './store.js';

/**
 * The most characters of a comment's text: the reference names commentTextTooLong without a
 * number; 10,000 is the limit commonly quoted (docs/research/first-comment-and-link-previews.md §1.5).
 */
export const COMMENT_MAX_CHARS = 10_000;

function commentError(status: number, reason: string, message: string): Reply {
  return googleError(status, reason, message, 'youtube.commentThread');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function threadResource(comment: FakeComment) {
  const snippet = {
    channelId: comment.channelId,
    videoId: comment.videoId,
    textOriginal: comment.textOriginal,
    textDisplay: comment.textOriginal,
    authorChannelId: { value: comment.authorChannelId },
    publishedAt: comment.publishedAt,
    updatedAt: comment.publishedAt,
  };
  return {
    kind: 'youtube#commentThread',
    id: comment.id,
    snippet: {
      channelId: comment.channelId,
      videoId: comment.videoId,
      topLevelComment: { kind: 'youtube#comment', id: comment.id, snippet },
      canReply: true,
      totalReplyCount: 0,
      isPublic: true,
    },
  };
}

/**
 * POST /youtube/v3/commentThreads?part=snippet (commentThreads.insert reference): only
 * `youtube.force-ssl` (else 403 insufficientPermissions); `snippet.channelId`, `snippet.videoId`
 * (400 channelOrVideoIdMissing) and the text (400 commentTextRequired, commentTextTooLong over
 * 10,000 characters); an unknown channel or video 404 channelNotFound / videoNotFound. 50 units.
 * Where the reference is silent, this fake's choices (documented in docs/networks.md): a video not
 * yet processed or private (YouTube shows no comment box on one) is 403 forbidden, and one with
 * comments turned off 403 commentsDisabled.
 */
export const insertTopLevelComment: Handler = (context) => {
  const token = authorize(context, COMMENT_SCOPES);
  if (isReply(token)) return token;
  if (!context.url.searchParams.get('part'))
    return googleErrors.invalid('required', 'Required parameter: part');
  let body: unknown;
  try {
    body = JSON.parse(context.body.toString('utf8'));
  } catch {
    return googleErrors.invalid('parseError', 'Parse Error');
  }
  const snippet = isRecord(body) && isRecord(body.snippet) ? body.snippet : {};
  const channelId = typeof snippet.channelId === 'string' ? snippet.channelId : '';
  const videoId = typeof snippet.videoId === 'string' ? snippet.videoId : '';
  if (!channelId || !videoId) {
    return commentError(
      400,
      'channelOrVideoIdMissing',
      'The comment thread must be linked to a specified channel and video.',
    );
  }
  const top =
    isRecord(snippet.topLevelComment) && isRecord(snippet.topLevelComment.snippet)
      ? snippet.topLevelComment.snippet
      : {};
  const text = typeof top.textOriginal === 'string' ? top.textOriginal : '';
  if (text.trim() === '')
    return commentError(400, 'commentTextRequired', 'The comment resource must contain a textOriginal.');
  if ([...text].length > COMMENT_MAX_CHARS) {
    return commentError(400, 'commentTextTooLong', 'The comment resource contains too many characters.');
  }
  if (!context.store.channels.has(channelId))
    return commentError(404, 'channelNotFound', 'The specified channel could not be found.');
  const now = context.settings.now();
  const video = context.store.videos.find(
    (item) => item.id === videoId && item.channelId === channelId && item.uploadStatus !== 'deleted',
  );
  if (!video) return commentError(404, 'videoNotFound', 'The specified video could not be found.');
  if (video.uploadStatus !== 'processed' || privacyNow(video, now) === 'private') {
    return commentError(
      403,
      'forbidden',
      'The comment thread could not be created due to insufficient permissions.',
    );
  }
  if (video.commentsDisabled)
    return commentError(403, 'commentsDisabled', 'The video has disabled comments.');
  const refused = charge(context, context.settings.costs.comment);
  if (refused) return refused;
  const comment: FakeComment = {
    id: `Ug${context.store.secret(18)}`,
    videoId,
    channelId,
    authorChannelId: token.channelId,
    textOriginal: text,
    publishedAt: new Date(now).toISOString(),
  };
  context.store.comments.push(comment);
  return { status: 200, json: threadResource(comment) };
};

/**
 * GET /youtube/v3/commentThreads?part=snippet&videoId=…[&order=time][&maxResults=…] (1 unit): the
 * video's top-level comments, newest first; maxResults 1–100 (default 20). An unknown video is 404
 * videoNotFound, one with comments off 403 commentsDisabled.
 */
export const listTopLevelComments: Handler = (context) => {
  const token = authorize(context, READ_SCOPES);
  if (isReply(token)) return token;
  const params = context.url.searchParams;
  if (!params.get('part')) return googleErrors.invalid('required', 'Required parameter: part');
  const videoId = params.get('videoId') ?? '';
  if (!videoId) return googleErrors.invalid('missingRequiredParameter', 'No filter selected.');
  const video = context.store.videos.find((item) => item.id === videoId && item.uploadStatus !== 'deleted');
  if (!video)
    return commentError(
      404,
      'videoNotFound',
      'The video identified by the videoId parameter could not be found.',
    );
  if (video.commentsDisabled) {
    return commentError(
      403,
      'commentsDisabled',
      'The video identified by the videoId parameter has disabled comments.',
    );
  }
  const max = Math.min(100, Math.max(1, Number(params.get('maxResults') ?? '20') || 20));
  const refused = charge(context, context.settings.costs.list);
  if (refused) return refused;
  const found = context.store.comments
    .filter((comment) => comment.videoId === videoId)
    .reverse()
    .slice(0, max);
  return {
    status: 200,
    json: {
      kind: 'youtube#commentThreadListResponse',
      pageInfo: { totalResults: found.length, resultsPerPage: max },
      items: found.map(threadResource),
    },
  };
};
