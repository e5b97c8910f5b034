import { advanceContainer } from '../shared/graph-containers.js';
import { graphError, type Reply, replies } from './http.js';
import { fetchMedia } from './media-fetch.js';
import type { ApiContext } from './route.js';
import type { FakeContainer, FakeMediaType } from './store.js';
import { fakeLinkCount, fakeTextLength } from './text-rules.js';

const MEDIA_TYPES: readonly FakeMediaType[] = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'];
const REPLY_CONTROLS = [
  'everyone',
  'accounts_you_follow',
  'mentioned_only',
  'parent_post_author_only',
  'followers_only',
];
const TEXT_ONLY = ['link_attachment', 'poll_attachment', 'text_attachment', 'gif_attachment'];
const MAX_TEXT = 500;
const MAX_LINKS = 5;
const CAROUSEL_MIN = 2;
const CAROUSEL_MAX = 20;

/** The path's user must be the token's (or `me`). */
export function ownUser(context: ApiContext): Reply | undefined {
  const id = context.params.user;
  if (id === 'me' || id === context.user.userId) return undefined;
  return replies.notFound(id ?? '');
}

/** The rules a container's parameters must meet (threads.md §4, §7), or the refusal. */
function paramsProblem(context: ApiContext, type: FakeMediaType, isItem: boolean): Reply | undefined {
  const f = context.fields;
  const text = f.get('text');
  if (text !== null && fakeTextLength(text) > MAX_TEXT) {
    return replies.badParameter(`Param text must be at most ${MAX_TEXT} characters long.`);
  }
  if (fakeLinkCount(text ?? '', f.get('link_attachment')) > MAX_LINKS) {
    return graphError(100, 'THREADS_API__LINK_LIMIT_EXCEEDED: A post may contain at most 5 links.');
  }
  if (type === 'TEXT' && !text) return replies.badParameter('Param text is required for a TEXT post.');
  if (type !== 'TEXT' && TEXT_ONLY.some((name) => f.has(name))) {
    return replies.badParameter(
      'link_attachment, poll_attachment, gif_attachment and text_attachment are for TEXT posts only.',
    );
  }
  if (f.has('link_attachment') && f.has('poll_attachment'))
    return replies.badParameter('A post takes a link or a poll, not both.');
  const link = f.get('link_attachment');
  if (link !== null && !/^https?:\/\/[^\s]+$/.test(link))
    return replies.badParameter('Param link_attachment must be a URL.');
  if ((type === 'TEXT' || type === 'CAROUSEL') && f.has('alt_text')) {
    return replies.badParameter('alt_text is for IMAGE and VIDEO media only.');
  }
  if (type === 'IMAGE' && !f.get('image_url'))
    return replies.badParameter('Param image_url is required for an IMAGE.');
  if (type === 'VIDEO' && !f.get('video_url'))
    return replies.badParameter('Param video_url is required for a VIDEO.');
  if ((type === 'TEXT' || type === 'CAROUSEL') && (f.has('image_url') || f.has('video_url'))) {
    return replies.badParameter(`A ${type} post takes no image_url or video_url.`);
  }
  if (isItem && (type === 'TEXT' || type === 'CAROUSEL'))
    return replies.badParameter('Only IMAGE and VIDEO can be carousel items.');
  if (isItem && ['reply_to_id', 'reply_control', 'quote_post_id', 'topic_tag'].some((name) => f.has(name))) {
    return replies.badParameter('A carousel item takes its post’s settings from the carousel.');
  }
  const control = f.get('reply_control');
  if (control !== null && !REPLY_CONTROLS.includes(control))
    return replies.badParameter('Param reply_control is invalid.');
  const topic = f.get('topic_tag');
  if (topic !== null && (topic.length < 1 || topic.length > 50 || /[.&]/.test(topic))) {
    return replies.badParameter('Param topic_tag must be 1 to 50 characters without "." or "&".');
  }
  return referencesProblem(context);
}

/** reply_to_id and quote_post_id must name existing posts; a reply needs threads_manage_replies and an own root. */
function referencesProblem(context: ApiContext): Reply | undefined {
  const f = context.fields;
  const quoted = f.get('quote_post_id');
  if (quoted !== null && !context.store.posts.some((post) => post.id === quoted))
    return replies.notFound(quoted);
  const replyTo = f.get('reply_to_id');
  if (replyTo === null) return undefined;
  if (!context.token.scopes.includes('threads_manage_replies')) {
    return graphError(10, 'Application does not have permission for this action (threads_manage_replies).');
  }
  let parent = context.store.posts.find((post) => post.id === replyTo);
  if (!parent) return replies.notFound(replyTo);
  while (parent.repliedTo) {
    const up = context.store.posts.find((post) => post.id === parent?.repliedTo);
    if (!up) break;
    parent = up;
  }
  if (parent.owner !== context.user.userId) {
    return graphError(
      10,
      'Replying to a post you do not own needs threads_keyword_search or threads_manage_mentions.',
    );
  }
  return undefined;
}

function newContainer(
  context: ApiContext,
  type: FakeMediaType,
  isItem: boolean,
  children: string[],
): FakeContainer {
  const failWith = context.control.failProcessing.shift();
  const container: FakeContainer = {
    id: context.store.id(),
    owner: context.user.userId,
    type,
    isCarouselItem: isItem,
    params: Object.fromEntries([...context.fields].filter(([name]) => name !== 'access_token')),
    children,
    pollsLeft: context.control.processingPolls[type],
    ...(failWith !== undefined && { failWith }),
    status: 'IN_PROGRESS',
    createdAt: context.settings.now(),
  };
  context.store.containers.set(container.id, container);
  return container;
}

/**
 * POST /{threads-user-id}/threads: a container (threads.md §4 step 1), its parameters checked as
 * Threads does. The media URL is fetched now: an image Meta cannot fetch is refused at once
 * (1/2207052), a video that fails leaves its container in ERROR, as Meta processes video later.
 */
export async function createContainer(context: ApiContext): Promise<Reply> {
  const notOwn = ownUser(context);
  if (notOwn) return notOwn;
  const f = context.fields;
  const type = f.get('media_type') as FakeMediaType | null;
  if (type === null) return replies.badParameter('Param media_type is required.');
  if (!MEDIA_TYPES.includes(type))
    return replies.badParameter(`Param media_type must be one of ${MEDIA_TYPES.join(', ')}.`);
  const isItem = f.get('is_carousel_item') === 'true';
  const problem = paramsProblem(context, type, isItem);
  if (problem) return problem;

  if (type === 'TEXT') return { status: 200, json: { id: newContainer(context, 'TEXT', false, []).id } };
  if (type === 'CAROUSEL') {
    const children = (f.get('children') ?? '').split(',').filter(Boolean);
    if (children.length < CAROUSEL_MIN || children.length > CAROUSEL_MAX) {
      return replies.badParameter(`A carousel takes ${CAROUSEL_MIN} to ${CAROUSEL_MAX} children.`);
    }
    for (const id of children) {
      const child = context.store.containers.get(id);
      if (!child || child.owner !== context.user.userId || !child.isCarouselItem) {
        return replies.badParameter(`The child ${id} is not a carousel item container of this profile.`);
      }
      if (child.status !== 'FINISHED')
        return graphError(24, 'The carousel item is not ready.', { subcode: 4279009 });
    }
    return { status: 200, json: { id: newContainer(context, 'CAROUSEL', false, children).id } };
  }
  const url = (type === 'VIDEO' ? f.get('video_url') : f.get('image_url')) ?? '';
  context.control.fetched.push(url);
  const fetched = await fetchMedia(url, type === 'VIDEO' ? 'video' : 'image', context.settings);
  if (!fetched.ok && type === 'IMAGE') {
    return fetched.reason === 'unreachable'
      ? graphError(1, 'The media could not be fetched from this URI.', { subcode: 2207052 })
      : replies.badParameter('The image is not a supported JPEG or PNG of at most 8 MB.', 2207004);
  }
  const container = newContainer(context, type, isItem, []);
  if (fetched.ok) container.fetched = { contentType: fetched.contentType, bytes: fetched.bytes };
  else
    container.failWith =
      fetched.reason === 'unreachable' ? 'FAILED_DOWNLOADING_VIDEO' : 'FAILED_PROCESSING_VIDEO';
  return { status: 200, json: { id: container.id } };
}

/** A status check moves a container on: IN_PROGRESS for its polls, then FINISHED (or ERROR); EXPIRED after 24 hours. */
export function advance(context: ApiContext, container: FakeContainer): void {
  advanceContainer(context.settings, container);
}
