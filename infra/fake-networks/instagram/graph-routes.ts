import { authenticateUser } from '../shared/graph-auth.js';
import { advanceContainer } from '../shared/graph-containers.js';
import { graphError, type Reply, replies } from './http.js';
import { fakeFollowersAt } from './insights-routes.js';
import { fetchMedia } from './media-fetch.js';
import type { ApiContext, Handler, RouteContext } from './route.js';
import type { FakeContainer, FakeContainerType, FakeMedia } from './store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The caller's token, from `Authorization: Bearer` or `access_token`, as Graph checks it. */
export function authenticate(context: RouteContext): ApiContext | Reply {
  return authenticateUser(context, replies);
}

/** The path's user must be the token's (or `me`). */
function ownUser(context: ApiContext): Reply | undefined {
  const id = context.params.user;
  if (id === 'me' || id === context.user.userId) return undefined;
  return graphError(100, `Unsupported request. Object with ID '${id}' cannot be accessed by this token.`, {
    subcode: 33,
  });
}

const fieldsOf = (context: RouteContext) => (context.fields.get('fields') ?? '').split(',').filter(Boolean);

function pick(record: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (record[field] !== undefined) out[field] = record[field];
  return out;
}

/** GET /me: the professional account, with its counts (followers grow with the fake's clock). */
export const me: Handler<ApiContext> = (context) => {
  const { user, store } = context;
  const record = {
    id: `app-scoped-${user.userId}`,
    user_id: user.userId,
    username: user.username,
    name: user.name,
    profile_picture_url: user.profilePictureUrl,
    account_type: 'BUSINESS',
    followers_count: fakeFollowersAt(user.followers ?? 1000, store.startedAt, context.settings.now()),
    follows_count: user.follows ?? 150,
    media_count: store.media.filter((media) => media.owner === user.userId && media.productType !== 'STORY')
      .length,
  };
  const fields = fieldsOf(context);
  return { status: 200, json: fields.length > 0 ? pick(record, [...fields, 'id']) : { id: record.id } };
};

function parseUserTags(value: string | null, image: boolean): string | undefined {
  if (value === null) return undefined;
  let tags: unknown;
  try {
    tags = JSON.parse(value);
  } catch {
    return 'user_tags must be a JSON array.';
  }
  if (!Array.isArray(tags)) return 'user_tags must be a JSON array.';
  for (const tag of tags) {
    if (
      typeof tag !== 'object' ||
      tag === null ||
      typeof (tag as { username?: unknown }).username !== 'string'
    ) {
      return 'Each user tag needs a username.';
    }
    const { x, y } = tag as { x?: unknown; y?: unknown };
    if (image) {
      if (typeof x !== 'number' || typeof y !== 'number' || x < 0 || x > 1 || y < 0 || y > 1) {
        return 'Image user tags need x and y between 0.0 and 1.0.';
      }
    }
  }
  return undefined;
}

function newContainer(
  context: ApiContext,
  type: FakeContainerType,
  isCarouselItem: boolean,
  children: string[],
): FakeContainer {
  const failWith = context.control.failProcessing.shift();
  const container: FakeContainer = {
    id: context.store.id(),
    owner: context.user.userId,
    type,
    isCarouselItem,
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

function fetchRefusal(reason: 'unreachable' | 'too_large' | 'unsupported'): Reply {
  if (reason === 'too_large') {
    return graphError(36000, 'The image size is too large. It should be less than 8 MiB.', {
      subcode: 2207004,
    });
  }
  if (reason === 'unsupported') {
    return graphError(9004, 'The media format is not supported. Only JPEG images are.', { subcode: 2207005 });
  }
  return graphError(9004, 'Media download has failed. The media URI does not meet our requirements.', {
    subcode: 2207052,
  });
}

const GRADUATION_STRATEGIES = ['MANUAL', 'SS_PERFORMANCE'];

/**
 * A reel's own parameters on anything else, or malformed (network-extras.md §4d): `trial_params`
 * is JSON with a known `graduation_strategy`, not beside `share_to_feed` (our reading where Meta is
 * silent: a trial reel is for non-followers first); `cover_url` is a reel's. `product_tags` is
 * not a parameter of the Instagram Login API at all.
 */
function reelOnlyProblem(f: URLSearchParams, mediaType: string | null): string | undefined {
  if (f.has('product_tags')) return 'Unsupported parameter product_tags: this login has no product tagging.';
  const trial = f.get('trial_params');
  if (trial !== null) {
    if (mediaType !== 'REELS') return 'trial_params is for reels only.';
    let parsed: unknown;
    try {
      parsed = JSON.parse(trial);
    } catch {
      return 'trial_params must be a JSON object.';
    }
    const strategy = (parsed as { graduation_strategy?: unknown } | null)?.graduation_strategy;
    if (typeof strategy !== 'string' || !GRADUATION_STRATEGIES.includes(strategy)) {
      return 'trial_params.graduation_strategy must be MANUAL or SS_PERFORMANCE.';
    }
    if (f.has('share_to_feed')) return 'A trial reel takes no share_to_feed.';
  }
  if (f.has('cover_url') && mediaType !== 'REELS') return 'cover_url is for reels only.';
  return undefined;
}

/**
 * POST /{ig-user-id}/media: a container (instagram.md §2 step 1). The media URL is fetched now and
 * checked (JPEG ≤ 8 MiB for images; MP4/MOV for videos): an image that fails is refused at once,
 * a video that fails leaves its container in ERROR, as Instagram processes video later.
 */
export const createMedia: Handler<ApiContext> = async (context) => {
  const notOwn = ownUser(context);
  if (notOwn) return notOwn;
  const f = context.fields;
  const mediaType = f.get('media_type');
  const isItem = f.get('is_carousel_item') === 'true';
  const caption = f.get('caption');
  if (caption !== null && [...caption].length > context.settings.maxCaption) {
    return replies.badParameter('The caption is too long.');
  }
  if (mediaType === 'CAROUSEL') {
    const children = (f.get('children') ?? '').split(',').filter(Boolean);
    if (children.length < 2 || children.length > 10) {
      return replies.badParameter('A carousel takes 2 to 10 children.');
    }
    for (const id of children) {
      const child = context.store.containers.get(id);
      if (!child || child.owner !== context.user.userId || !child.isCarouselItem) {
        return replies.badParameter(`The child ${id} is not a carousel item container of this account.`);
      }
      if (child.status !== 'FINISHED') {
        return graphError(9007, 'A carousel item is not ready to be published.', { subcode: 2207027 });
      }
    }
    if (f.has('image_url') || f.has('video_url') || f.has('user_tags') || f.has('alt_text')) {
      return replies.badParameter('A carousel container takes children, not media.');
    }
    return { status: 200, json: { id: newContainer(context, 'CAROUSEL', false, children).id } };
  }
  const isStory = mediaType === 'STORIES';
  const isVideo = mediaType === 'REELS' || mediaType === 'VIDEO' || (isStory && f.has('video_url'));
  if (mediaType !== null && !['REELS', 'VIDEO', 'STORIES'].includes(mediaType)) {
    return replies.badParameter(`Unsupported media_type ${mediaType}.`);
  }
  if (mediaType === 'VIDEO' && !isItem) {
    return replies.badParameter('media_type VIDEO is for carousel items; publish single videos as REELS.');
  }
  const url = isVideo ? f.get('video_url') : f.get('image_url');
  if (!url) return replies.badParameter(isVideo ? 'video_url is required.' : 'image_url is required.');
  if ((isVideo || isStory) && f.has('alt_text'))
    return replies.badParameter('alt_text is for image posts only.');
  if (f.has('share_to_feed') && mediaType !== 'REELS')
    return replies.badParameter('share_to_feed is for reels only.');
  if (isItem && caption !== null) return replies.badParameter('A carousel item takes no caption.');
  const reelProblem = reelOnlyProblem(f, mediaType);
  if (reelProblem) return replies.badParameter(reelProblem);
  const tagProblem = parseUserTags(f.get('user_tags'), !isVideo && !isStory);
  if (tagProblem) return replies.badParameter(tagProblem);

  const coverUrl = f.get('cover_url');
  if (coverUrl !== null) {
    // Meta fetches the cover like an image post's image: JPEG, within the image limit.
    context.control.fetched.push(coverUrl);
    const cover = await fetchMedia(coverUrl, 'image', context.settings);
    if (!cover.ok) return fetchRefusal(cover.reason);
  }
  context.control.fetched.push(url);
  const fetched = await fetchMedia(url, isVideo ? 'video' : 'image', context.settings);
  const type: FakeContainerType = isStory
    ? 'STORIES'
    : mediaType === 'REELS'
      ? 'REELS'
      : isVideo
        ? 'VIDEO'
        : 'IMAGE';
  if (!fetched.ok && !isVideo) return fetchRefusal(fetched.reason);
  const container = newContainer(context, type, isItem, []);
  if (fetched.ok) container.fetched = { contentType: fetched.contentType, bytes: fetched.bytes };
  else container.failWith = fetched.reason === 'too_large' ? 2207004 : 2207026;
  return { status: 200, json: { id: container.id } };
};

/** A status check moves a container on: IN_PROGRESS for its polls, then FINISHED (or ERROR). */
function advance(context: RouteContext, container: FakeContainer): void {
  advanceContainer(context.settings, container);
}

/** GET /{id}: a container's status, or a media item's fields. */
export const getObject: Handler<ApiContext> = (context) => {
  const id = context.params.id ?? '';
  const container = context.store.containers.get(id);
  if (container) {
    if (container.owner !== context.user.userId) return replies.notFound(id);
    advance(context, container);
    const status =
      container.status === 'ERROR'
        ? `Error: Media ID ${id} could not be processed (${container.failWith ?? 2207001}).`
        : container.status === 'FINISHED'
          ? 'Finished: Media container is ready to be published.'
          : container.status === 'IN_PROGRESS'
            ? 'In Progress: Media is still being processed.'
            : container.status;
    return {
      status: 200,
      json: pick({ id, status_code: container.status, status }, [...fieldsOf(context), 'id']),
    };
  }
  const media = context.store.media.find((item) => item.id === id);
  if (!media || media.owner !== context.user.userId) return replies.notFound(id);
  return { status: 200, json: pick(mediaRecord(media), [...fieldsOf(context), 'id']) };
};

function mediaRecord(media: FakeMedia): Record<string, unknown> {
  return {
    id: media.id,
    caption: media.caption,
    media_type: media.mediaType,
    media_product_type: media.productType,
    timestamp: new Date(media.timestamp).toISOString().replace(/\.\d{3}Z$/, '+0000'),
    permalink: media.permalink,
  };
}

function publishedInWindow(context: ApiContext): number {
  const since = context.settings.now() - DAY_MS;
  return context.store.media.filter((media) => media.owner === context.user.userId && media.timestamp > since)
    .length;
}

/** POST /{ig-user-id}/media_publish?creation_id: a FINISHED container becomes media, within the limit. */
export const mediaPublish: Handler<ApiContext> = (context) => {
  const notOwn = ownUser(context);
  if (notOwn) return notOwn;
  const id = context.fields.get('creation_id') ?? '';
  const container = context.store.containers.get(id);
  if (!container || container.owner !== context.user.userId) return replies.notFound(id);
  if (container.isCarouselItem)
    return replies.badParameter('A carousel item is published through its carousel.');
  advance(context, container);
  if (container.status === 'PUBLISHED') {
    return graphError(9007, 'The media has already been published.', { subcode: 2207008 });
  }
  if (container.status === 'EXPIRED') {
    return graphError(-2, 'The container has expired. Create a new one.', { subcode: 2207020, status: 400 });
  }
  if (container.status !== 'FINISHED') {
    return graphError(9007, 'Media ID is not available. The media is not ready for publishing.', {
      subcode: 2207027,
    });
  }
  if (publishedInWindow(context) >= context.control.quotaTotal) {
    return graphError(9, 'Application request limit reached: the account reached its publishing limit.', {
      subcode: 2207042,
    });
  }
  const mediaId = context.store.id();
  container.status = 'PUBLISHED';
  container.mediaId = mediaId;
  context.store.media.push({
    id: mediaId,
    owner: context.user.userId,
    containerId: container.id,
    mediaType: mediaTypeOf(container),
    productType: container.type === 'REELS' ? 'REELS' : container.type === 'STORIES' ? 'STORY' : 'FEED',
    ...(container.params.caption !== undefined && { caption: container.params.caption }),
    timestamp: context.settings.now(),
    permalink: permalinkOf(container, mediaId, context.user.username),
    children: container.children,
    ...(container.params.trial_params !== undefined && { trialParams: container.params.trial_params }),
    ...(container.params.cover_url !== undefined && { coverUrl: container.params.cover_url }),
  });
  return { status: 200, json: { id: mediaId } };
};

function mediaTypeOf(container: FakeContainer): FakeMedia['mediaType'] {
  if (container.type === 'CAROUSEL') return 'CAROUSEL_ALBUM';
  if (container.type === 'IMAGE') return 'IMAGE';
  if (container.type === 'STORIES') return container.params.video_url ? 'VIDEO' : 'IMAGE';
  return 'VIDEO';
}

function permalinkOf(container: FakeContainer, mediaId: string, username: string): string {
  if (container.type === 'REELS') return `https://www.instagram.com/reel/${mediaId}/`;
  if (container.type === 'STORIES') return `https://www.instagram.com/stories/${username}/${mediaId}/`;
  return `https://www.instagram.com/p/${mediaId}/`;
}

/** GET /{ig-user-id}/content_publishing_limit: the rolling 24-hour usage and limit. */
export const publishingLimit: Handler<ApiContext> = (context) => {
  const notOwn = ownUser(context);
  if (notOwn) return notOwn;
  return {
    status: 200,
    json: {
      data: [
        {
          quota_usage: publishedInWindow(context),
          config: { quota_total: context.control.quotaTotal, quota_duration: 86400 },
        },
      ],
    },
  };
};

/** GET /{ig-user-id}/media or /stories: newest first, with `since` (unix seconds) and `limit`. */
export function listMedia(edge: 'media' | 'stories'): Handler<ApiContext> {
  return (context) => {
    const notOwn = ownUser(context);
    if (notOwn) return notOwn;
    const now = context.settings.now();
    const since = Number(context.fields.get('since') ?? Number.NaN) * 1000;
    const limit = Math.min(Number(context.fields.get('limit') ?? 25) || 25, 100);
    const fields = fieldsOf(context);
    const listed = context.store.media
      .filter((media) => media.owner === context.user.userId)
      .filter((media) =>
        edge === 'stories'
          ? media.productType === 'STORY' && media.timestamp > now - DAY_MS
          : media.productType !== 'STORY',
      )
      .filter((media) => !Number.isFinite(since) || media.timestamp >= since)
      .reverse()
      .slice(0, limit);
    return {
      status: 200,
      json: {
        data: listed.map((media) => pick(mediaRecord(media), fields.length > 0 ? [...fields, 'id'] : ['id'])),
      },
    };
  };
}
