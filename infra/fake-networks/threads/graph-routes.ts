import { authenticateUser } from '../shared/graph-auth.js';
import { advance, ownUser } from './container-routes.js';
import { graphError, type Reply, replies } from './http.js';
import type { ApiContext, Handler, RouteContext } from './route.js';
import type { FakeContainer, FakeThreadsPost } from './store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The caller's token, from `Authorization: Bearer` or `access_token`, as Graph checks it. */
export function authenticate(context: RouteContext): ApiContext | Reply {
  return authenticateUser(context, replies);
}

const fieldsOf = (context: RouteContext) => (context.fields.get('fields') ?? '').split(',').filter(Boolean);

function pick(record: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (record[field] !== undefined) out[field] = record[field];
  return out;
}

/** GET /me: the Threads profile. */
export const me: Handler<ApiContext> = (context) => {
  const { user } = context;
  const record = {
    id: user.userId,
    username: user.username,
    name: user.name,
    threads_profile_picture_url: user.profilePictureUrl,
    threads_biography: 'A fake profile.',
    is_verified: false,
  };
  return { status: 200, json: pick(record, [...fieldsOf(context), 'id']) };
};

function postRecord(post: FakeThreadsPost, username: string): Record<string, unknown> {
  return {
    id: post.id,
    media_product_type: 'THREADS',
    media_type: post.mediaType,
    text: post.text,
    timestamp: new Date(post.timestamp).toISOString().replace(/\.\d{3}Z$/, '+0000'),
    permalink: post.permalink,
    shortcode: post.shortcode,
    username,
    owner: { id: post.owner },
    is_quote_post: post.quotedPostId !== undefined,
    is_reply: post.repliedTo !== undefined,
    ...(post.repliedTo && { replied_to: { id: post.repliedTo } }),
    ...(post.topicTag && { topic_tag: post.topicTag }),
    ...(post.linkAttachment && { link_attachment_url: post.linkAttachment }),
  };
}

/** GET /{id}: a container's status (an ERROR with its error_message, HTTP 200), or a post's fields. */
export const getObject: Handler<ApiContext> = (context) => {
  const id = context.params.id ?? '';
  const container = context.store.containers.get(id);
  if (container) {
    if (container.owner !== context.user.userId) return replies.notFound(id);
    advance(context, container);
    const record = {
      id,
      status: container.status,
      ...(container.status === 'ERROR' && { error_message: container.failWith ?? 'UNKNOWN' }),
    };
    return { status: 200, json: pick(record, [...fieldsOf(context), 'id']) };
  }
  const post = context.store.posts.find((item) => item.id === id);
  if (!post) return replies.notFound(id);
  return { status: 200, json: pick(postRecord(post, context.user.username), [...fieldsOf(context), 'id']) };
};

function inWindow(context: ApiContext, reply: boolean): number {
  const since = context.settings.now() - DAY_MS;
  return context.store.posts.filter(
    (post) =>
      post.owner === context.user.userId &&
      post.timestamp > since &&
      (post.repliedTo !== undefined) === reply,
  ).length;
}

function mediaTypeOf(container: FakeContainer): FakeThreadsPost['mediaType'] {
  if (container.type === 'CAROUSEL') return 'CAROUSEL_ALBUM';
  if (container.type === 'TEXT') return 'TEXT_POST';
  return container.type;
}

/**
 * POST /{threads-user-id}/threads_publish?creation_id: a FINISHED container becomes a post, within
 * the 24-hour allowance (250 posts; 1,000 replies, counted apart — threads.md §8). A container not
 * ready yet answers 24/4279009 "Media Not Found", as Meta does for one it cannot see yet.
 */
export const publish: Handler<ApiContext> = (context) => {
  const notOwn = ownUser(context);
  if (notOwn) return notOwn;
  const id = context.fields.get('creation_id') ?? '';
  if (!id) return replies.badParameter('Param creation_id is required.');
  const container = context.store.containers.get(id);
  if (!container || container.owner !== context.user.userId) return replies.notFound(id);
  if (container.isCarouselItem)
    return replies.badParameter('A carousel item is published through its carousel.');
  advance(context, container);
  if (container.status === 'PUBLISHED')
    return replies.badParameter('The container has already been published.', 4279001);
  if (container.status === 'EXPIRED')
    return replies.badParameter('The container has expired. Create a new one.', 4279002);
  if (container.status === 'ERROR') return replies.badParameter('The container failed to process.', 4279003);
  if (container.status !== 'FINISHED') return graphError(24, 'Media Not Found', { subcode: 4279009 });
  const reply = container.params.reply_to_id !== undefined;
  const total = reply ? context.control.replyQuotaTotal : context.control.quotaTotal;
  if (inWindow(context, reply) >= total) {
    return graphError(
      9,
      `The profile reached its limit of ${total} ${reply ? 'replies' : 'posts'} in 24 hours.`,
      {
        subcode: 2207042,
      },
    );
  }
  const mediaId = context.store.id();
  const shortcode = `C${Buffer.from(mediaId).toString('base64url').slice(-10)}`;
  container.status = 'PUBLISHED';
  container.mediaId = mediaId;
  const p = container.params;
  context.store.posts.push({
    id: mediaId,
    owner: context.user.userId,
    containerId: container.id,
    mediaType: mediaTypeOf(container),
    ...(p.text !== undefined && { text: p.text }),
    timestamp: context.settings.now(),
    shortcode,
    permalink: `https://www.threads.net/@${context.user.username}/post/${shortcode}`,
    ...(p.reply_to_id && { repliedTo: p.reply_to_id }),
    ...(p.quote_post_id && { quotedPostId: p.quote_post_id }),
    ...(p.link_attachment && { linkAttachment: p.link_attachment }),
    ...(p.topic_tag && { topicTag: p.topic_tag }),
    replyControl: p.reply_control ?? 'everyone',
    children: container.children,
  });
  return { status: 200, json: { id: mediaId } };
};

/** GET /{threads-user-id}/threads_publishing_limit: the rolling 24-hour usage of posts and replies. */
export const publishingLimit: Handler<ApiContext> = (context) => {
  const notOwn = ownUser(context);
  if (notOwn) return notOwn;
  const fields = fieldsOf(context);
  if (
    fields.some((field) => field.startsWith('reply_')) &&
    !context.token.scopes.includes('threads_manage_replies')
  ) {
    return graphError(10, 'Application does not have permission for this action (threads_manage_replies).');
  }
  const record = {
    quota_usage: inWindow(context, false),
    config: { quota_total: context.control.quotaTotal, quota_duration: 86400 },
    reply_quota_usage: inWindow(context, true),
    reply_config: { quota_total: context.control.replyQuotaTotal, quota_duration: 86400 },
  };
  return { status: 200, json: { data: [pick(record, fields.length > 0 ? fields : ['quota_usage'])] } };
};

/** GET /{threads-user-id}/threads or /replies: newest first, with `since` (unix seconds) and `limit` (≤ 100). */
export function listPosts(edge: 'threads' | 'replies'): Handler<ApiContext> {
  return (context) => {
    const notOwn = ownUser(context);
    if (notOwn) return notOwn;
    const since = Number(context.fields.get('since') ?? Number.NaN) * 1000;
    const limit = Math.min(Number(context.fields.get('limit') ?? 25) || 25, 100);
    const fields = fieldsOf(context);
    const listed = context.store.posts
      .filter((post) => post.owner === context.user.userId)
      .filter((post) => (edge === 'replies') === (post.repliedTo !== undefined))
      .filter((post) => !Number.isFinite(since) || post.timestamp >= since)
      .reverse()
      .slice(0, limit);
    return {
      status: 200,
      json: {
        data: listed.map((post) =>
          pick(postRecord(post, context.user.username), fields.length > 0 ? [...fields, 'id'] : ['id']),
        ),
      },
    };
  };
}
