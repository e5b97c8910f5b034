import { graphError, type Reply, replies } from './http.js';
import type { ApiContext, Handler } from './route.js';
import type { FakeComment, FakeMedia } from './store.js';

/** Instagram's comment is its text alone: any other parameter is refused (first-comment §1.3). */
const COMMENT_PARAMS = new Set(['message', 'access_token']);

/** The media the path names, if it exists and is the token's account's. */
function ownMedia(context: ApiContext): FakeMedia | Reply {
  const id = context.params.id ?? '';
  const media = context.store.media.find((item) => item.id === id);
  if (!media || media.owner !== context.user.userId) return replies.notFound(id);
  return media;
}

/**
 * POST /{ig-media-id}/comments?message=: a comment by the token's account (IG Media Comments
 * reference). `message` is required and the only parameter; a story takes no comments; a media
 * whose comments are turned off refuses them.
 */
export const createComment: Handler<ApiContext> = (context) => {
  const media = ownMedia(context);
  if ('status' in media) return media;
  const unknown = [...context.fields.keys()].find((name) => !COMMENT_PARAMS.has(name));
  if (unknown)
    return replies.badParameter(`Unsupported parameter ${unknown}: a comment takes a message only.`);
  const message = context.fields.get('message') ?? '';
  if (message.trim() === '') return replies.badParameter('The parameter message is required.');
  if (media.productType === 'STORY') return replies.badParameter('Stories take no comments.');
  if (media.commentsDisabled) return graphError(100, 'Comments are disabled for this media.');
  const comment: FakeComment = {
    id: context.store.id(),
    mediaId: media.id,
    userId: context.user.userId,
    username: context.user.username,
    text: message,
    timestamp: context.settings.now(),
  };
  context.store.comments.push(comment);
  return { status: 200, json: { id: comment.id } };
};

const COMMENT_FIELDS = ['id', 'text', 'username', 'timestamp'] as const;

/**
 * GET /{ig-media-id}/comments: the media's comments, oldest first, `limit` a page (25 by default),
 * the next page from the `after` cursor (a comment's position).
 */
export const listComments: Handler<ApiContext> = (context) => {
  const media = ownMedia(context);
  if ('status' in media) return media;
  const all = context.store.comments.filter((comment) => comment.mediaId === media.id);
  const limit = Math.min(Number(context.fields.get('limit') ?? 25) || 25, 100);
  const start = Number(context.fields.get('after') ?? 0) || 0;
  const page = all.slice(start, start + limit);
  const asked = (context.fields.get('fields') ?? '').split(',').filter(Boolean);
  const fields = COMMENT_FIELDS.filter((field) => field === 'id' || asked.includes(field));
  const next = start + limit < all.length ? String(start + limit) : undefined;
  return {
    status: 200,
    json: {
      data: page.map((comment) => {
        const record: Record<string, string> = {
          id: comment.id,
          text: comment.text,
          username: comment.username,
          timestamp: new Date(comment.timestamp).toISOString().replace(/\.\d{3}Z$/, '+0000'),
        };
        return Object.fromEntries(fields.map((field) => [field, record[field]]));
      }),
      ...(page.length > 0 && {
        paging: {
          cursors: { before: String(start), after: String(start + page.length) },
          ...(next && { next: `${context.baseUrl}${context.url.pathname}?after=${next}` }),
        },
      }),
    },
  };
};
