import { z } from 'zod';
import { isReply, jsonBody } from './api-auth.js';
import { replies } from './http.js';
import { publishedText } from './little-text.js';
import { type ApiContext, type Handler, hasScope } from './route.js';
import type { FakeComment, FakePost } from './store.js';

/**
 * The Page roles that may comment as a Page, and read its comments (Comments API, "Permissions":
 * w_organization_social_feed with ADMINISTRATOR, DIRECT_SPONSORED_CONTENT_POSTER or
 * RECRUITING_POSTER; r_organization_social_feed without the last). A content administrator may
 * post for the Page but not comment for it.
 */
const COMMENTING_ROLES = ['ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER', 'RECRUITING_POSTER'];
const READING_ROLES = ['ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER'];

const CommentBody = z.strictObject({
  actor: z.string().regex(/^urn:li:(person|organization):[A-Za-z0-9_-]+$/),
  object: z.string(),
  message: z.strictObject({ text: z.string().min(1) }),
  parentComment: z.string().optional(),
});

/** The post the path names (its URN, URL-encoded as one segment), or a 404 reply. */
function postOf(context: ApiContext): FakePost | ReturnType<typeof replies.notFound> {
  const urn = decodeURIComponent(context.params.urn ?? '');
  const post = context.store.posts.find((candidate) => candidate.id === urn && !candidate.deletedAt);
  return post ?? replies.notFound(`${urn} does not exist.`);
}

/** Whether the token's member holds one of these roles on the Page, with the scope. */
function holdsRole(context: ApiContext, organization: string, scope: string, roles: string[]): boolean {
  return (
    hasScope(context.token, scope) &&
    context.store.rolesOn(context.member.sub, organization).some((role) => roles.includes(role))
  );
}

function view(comment: FakeComment) {
  return {
    $URN: comment.urn,
    id: comment.id,
    object: comment.object,
    actor: comment.actor,
    message: { text: comment.text },
    created: { actor: comment.actor, time: comment.createdAt },
    lastModified: { actor: comment.actor, time: comment.createdAt },
  };
}

/**
 * POST /rest/socialActions/{post}/comments: the post exists (404), `object` is the path's post,
 * the actor is the token's member with `w_member_social_feed` or a Page with
 * `w_organization_social_feed` and a commenting role (403), and is the post's author (stricter
 * than LinkedIn, which lets anyone comment: the service only comments on its own posts, so another
 * actor is a bug), the text within its length once its escapes are resolved (422), and no media
 * (the service sends none). 201, the comment in the body and its id in `x-restli-id`.
 */
export const createComment: Handler<ApiContext> = (context) => {
  const post = postOf(context);
  if ('status' in post) return post;
  const body = jsonBody(context);
  if (isReply(body)) return body;
  const parsed = CommentBody.safeParse(body.json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return replies.invalid(
      `Invalid comment: ${issue?.message ?? 'malformed'}`,
      'INVALID_VALUE',
      `/${issue?.path.join('/') ?? ''}`,
    );
  }
  const comment = parsed.data;
  if (comment.object !== post.id) return replies.badRequest('The object is not the post of the path.');
  const mayComment = comment.actor.startsWith('urn:li:person:')
    ? comment.actor === context.memberUrn && hasScope(context.token, 'w_member_social_feed')
    : holdsRole(context, comment.actor, 'w_organization_social_feed', COMMENTING_ROLES);
  if (!mayComment) return replies.accessDenied('partnerApiSocialActions.CREATE-comments');
  if (comment.actor !== post.author) {
    return replies.invalid('The fake takes comments by the post’s author only.', 'INVALID_ACTOR', '/actor');
  }
  const text = publishedText(comment.message.text);
  if ([...text].length > context.settings.maxComment) {
    return replies.invalid(
      `The comment is longer than ${context.settings.maxComment} characters.`,
      'MAX_LENGTH_EXCEEDED',
      '/message/text',
    );
  }
  const id = context.store.nextNumber();
  const stored: FakeComment = {
    urn: `urn:li:comment:(${post.id},${id})`,
    id,
    object: post.id,
    actor: comment.actor,
    text: comment.message.text,
    publishedText: text,
    createdAt: context.settings.now(),
  };
  context.store.comments.push(stored);
  return { status: 201, headers: { 'x-restli-id': id }, json: view(stored) };
};

/**
 * GET /rest/socialActions/{post}/comments: a Page post's comments with `r_organization_social_feed`
 * and a reading role on the Page; a member's post's only with `r_member_social_feed`, which
 * LinkedIn restricts to select developers (no product of the fake grants it). Oldest first, paged.
 */
export const listComments: Handler<ApiContext> = (context) => {
  const post = postOf(context);
  if ('status' in post) return post;
  const allowed = post.author.startsWith('urn:li:person:')
    ? post.author === context.memberUrn && hasScope(context.token, 'r_member_social_feed')
    : holdsRole(context, post.author, 'r_organization_social_feed', READING_ROLES);
  if (!allowed) return replies.accessDenied('partnerApiSocialActions.GET_ALL-comments');
  const query = context.url.searchParams;
  const start = Number(query.get('start') ?? 0);
  const count = Math.min(Number(query.get('count') ?? 10), 100);
  const all = context.store.comments.filter((comment) => comment.object === post.id);
  return {
    status: 200,
    json: {
      paging: { start, count, total: all.length, links: [] },
      elements: all.slice(start, start + count).map(view),
    },
  };
};
