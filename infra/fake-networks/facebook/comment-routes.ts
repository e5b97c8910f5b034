import { graphError, type Reply, replies } from './http.js';
import { fetchMedia } from './media-fetch.js';
import type { ApiContext, Handler } from './route.js';
import type { FakeComment } from './store.js';

const ATTACHMENTS = ['attachment_id', 'attachment_url', 'attachment_share_url', 'source'] as const;

/** The Page whose post or video the path names, if it exists and is published. */
function pageOfObject(context: ApiContext, id: string): string | undefined {
  const post = context.store.posts.find((candidate) => candidate.id === id);
  if (post) return post.pageId;
  const video = context.store.videos.get(id);
  return video?.postId !== undefined || video?.publishing === 'complete' ? video?.pageId : undefined;
}

/**
 * The Page commenting on its own post: its Page token, with `pages_manage_engagement`, and the
 * person's MODERATE task (the comments guide's requirements). Reading needs the same task: since
 * v11 comment ids come only to a moderator.
 */
function asModerator(context: ApiContext, pageId: string, needs: string): Reply | undefined {
  const { token } = context;
  if (token.kind !== 'page' || token.pageId !== pageId)
    return graphError(200, '(#200) The comment must be made by the Page with its own token.');
  if (!token.scopes.includes(needs)) return replies.noPermission(needs);
  if (!context.store.pageOf(pageId)?.page.tasks.includes('MODERATE'))
    return graphError(200, '(#200) The user must be able to moderate the Page.');
  return undefined;
}

/**
 * POST /{object-id}/comments (Graph API Object Comments reference): `message`, and at most one of
 * `attachment_id`, `attachment_url`, `attachment_share_url`, `source`; `message` may be empty with
 * an attachment. An `attachment_url` is fetched like a photo's `url` (an image Meta can read).
 */
export const createComment: Handler<ApiContext> = async (context) => {
  const id = context.params.id ?? '';
  const pageId = pageOfObject(context, id);
  if (!pageId) return replies.notFound(id);
  const refused = asModerator(context, pageId, 'pages_manage_engagement');
  if (refused) return refused;
  const fields = context.fields;
  const attachments = ATTACHMENTS.filter((name) => fields.has(name));
  if (attachments.length > 1) return replies.badParameter('(#100) A comment takes at most one attachment.');
  const message = fields.get('message') ?? '';
  if (!message && attachments.length === 0)
    return replies.badParameter('(#100) A comment needs a message or an attachment.');
  if ([...message].length > context.settings.maxComment)
    return replies.badParameter(
      `(#100) The comment is longer than ${context.settings.maxComment} characters.`,
    );
  const attachmentUrl = fields.get('attachment_url') ?? undefined;
  if (attachmentUrl !== undefined) {
    const fetched = await fetchMedia(attachmentUrl, 'image', context.settings);
    context.store.fetchedUrls.push(attachmentUrl);
    if (!fetched.ok)
      return graphError(100, '(#100) The attachment could not be read as an image.', { subcode: 2069019 });
  }
  const comment: FakeComment = {
    id: `${id.split('_').at(-1)}_${context.store.id('7')}`,
    objectId: id,
    fromId: pageId,
    message,
    ...(attachmentUrl !== undefined && { attachmentUrl }),
    createdTime: context.settings.now(),
  };
  context.store.comments.push(comment);
  return { status: 200, json: { id: comment.id } };
};

/**
 * GET /{object-id}/comments: `order=reverse_chronological` newest first (else oldest first),
 * `limit` a page (25 by default), the next from the `after` cursor; `from` is the commenter.
 */
export const listComments: Handler<ApiContext> = (context) => {
  const id = context.params.id ?? '';
  const pageId = pageOfObject(context, id);
  if (!pageId) return replies.notFound(id);
  const refused = asModerator(context, pageId, 'pages_read_engagement');
  if (refused) return refused;
  const fields = context.fields;
  const all = context.store.comments.filter((comment) => comment.objectId === id);
  if (fields.get('order') === 'reverse_chronological') all.reverse();
  const limit = Math.min(Number(fields.get('limit') ?? 25) || 25, 100);
  const start = Number(fields.get('after') ?? 0) || 0;
  const page = all.slice(start, start + limit);
  const next = start + limit < all.length ? String(start + limit) : undefined;
  return {
    status: 200,
    json: {
      data: page.map((comment) => ({
        id: comment.id,
        message: comment.message,
        created_time: new Date(comment.createdTime).toISOString().replace(/\.\d{3}Z$/, '+0000'),
        from: { id: comment.fromId, name: context.store.pageOf(comment.fromId)?.page.name ?? 'Someone' },
      })),
      ...(page.length > 0 && {
        paging: {
          cursors: { before: String(start), after: String(start + page.length) },
          ...(next && { next: `${context.baseUrl}${context.url.pathname}?after=${next}` }),
        },
      }),
    },
  };
};
