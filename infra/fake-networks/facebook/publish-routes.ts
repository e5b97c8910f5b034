import { graphError, type Reply, replies } from './http.js';
import { fetchMedia } from './media-fetch.js';
import type { ApiContext, Handler } from './route.js';
import type { FakePost, FakeVideo } from './store.js';

/**
 * Publishing as the Page: a Page token of that Page (a user token gets Meta's "as the page
 * itself" error), with `pages_manage_posts` (and `publish_video` for videos and reels).
 */
export function asPage(context: ApiContext, needs: string[] = []): Reply | undefined {
  const pageId = context.params.page ?? '';
  if (!context.store.pageOf(pageId)) return replies.notFound(pageId);
  const { token } = context;
  if (token.kind !== 'page') return replies.notAsPage();
  if (token.pageId !== pageId)
    return graphError(200, '(#200) The user does not have permission to post on this Page.');
  for (const permission of ['pages_manage_posts', ...needs]) {
    if (!token.scopes.includes(permission)) return replies.noPermission(permission);
  }
  const owner = context.store.pageOf(pageId);
  if (!owner?.page.tasks.includes('CREATE_CONTENT'))
    return graphError(200, '(#200) The user must be able to create content on the Page.');
  return undefined;
}

/** `link` makes a feed post's preview card: photos, videos and reels take none (§2.5 research). */
function linkElsewhere(context: ApiContext): Reply | undefined {
  return context.fields.has('link')
    ? replies.badParameter('(#100) link is a parameter of feed posts only.')
    : undefined;
}

/** Posting past a burst (more than `burstPerMinute` posts of a Page in a minute): 368/1390008. */
function tooFast(context: ApiContext): Reply | undefined {
  const since = context.settings.now() - 60_000;
  const recent = context.store.posts.filter(
    (post) => post.pageId === context.params.page && post.createdTime >= since,
  ).length;
  if (recent < context.settings.burstPerMinute) return undefined;
  return graphError(368, 'It looks like you were misusing this feature by going too fast.', {
    subcode: 1390008,
  });
}

function messageProblem(context: ApiContext, message: string): Reply | undefined {
  if ([...message].length > context.settings.maxMessage)
    return replies.badParameter(
      `(#100) The message is too long: at most ${context.settings.maxMessage} characters.`,
    );
  const fields = context.fields;
  if (fields.has('scheduled_publish_time')) {
    if (fields.get('published') !== 'false')
      return replies.badParameter('(#100) You cannot specify a scheduled publish time on a published post');
    const at = Number(fields.get('scheduled_publish_time')) * 1000;
    const now = context.settings.now();
    if (!(at >= now + 10 * 60_000 && at <= now + 30 * 24 * 3600_000))
      return replies.badParameter('(#100) The specified scheduled publish time is invalid.');
  }
  return undefined;
}

/** The same text as the Page's last post: 506 (§3). */
function duplicate(context: ApiContext, message: string): Reply | undefined {
  if (!message) return undefined;
  const [last] = context.store.postsOf(context.params.page ?? '');
  return last && last.message === message && last.kind !== 'reel'
    ? graphError(506, '(#506) Duplicate status message')
    : undefined;
}

function addPost(context: ApiContext, post: Omit<FakePost, 'id' | 'pageId' | 'createdTime'>): FakePost {
  const pageId = context.params.page ?? '';
  const made: FakePost = {
    ...post,
    id: `${pageId}_${context.store.id('12')}`,
    pageId,
    createdTime: context.settings.now(),
  };
  context.store.posts.push(made);
  return made;
}

const PREVIEW_REFUSED_HOSTS = /(^|\.)facebook\.com$/i;

/**
 * POST /{page}/feed: `message`, `link` (the preview card: Meta reads the link's Open Graph tags;
 * here a host under `.invalid` cannot be read, 1609005, and a facebook.com link is refused,
 * 1609008), or photos attached as `attached_media[i]={"media_fbid":"…"}` form fields. A
 * JSON-encoded `attached_media` field is dropped as Meta drops it: a text-only post (§2.3).
 * Attached photos must be this Page's unpublished photos, each attached once (1366051).
 */
export const feed: Handler<ApiContext> = (context) => {
  const refused = asPage(context) ?? tooFast(context);
  if (refused) return refused;
  const fields = context.fields;
  const message = fields.get('message') ?? '';
  const problem = messageProblem(context, message);
  if (problem) return problem;
  const link = fields.get('link') ?? undefined;
  if (link !== undefined) {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      return graphError(100, '(#100) The link is not a valid URL.', { subcode: 2061006 });
    }
    if (PREVIEW_REFUSED_HOSTS.test(url.hostname))
      return graphError(100, 'Cannot post facebook.com links.', { subcode: 1609008 });
    if (url.hostname.endsWith('.invalid') || context.control.linkScrapeFails)
      return graphError(1609005, 'Error posting link: the link could not be read.');
  }
  const attachedNames = [...fields.keys()].filter((name) => /^attached_media\[\d+\]$/.test(name));
  const photoIds: string[] = [];
  for (const name of attachedNames) {
    let fbid: unknown;
    try {
      fbid = (JSON.parse(fields.get(name) ?? '') as { media_fbid?: unknown }).media_fbid;
    } catch {
      return replies.badParameter(`(#100) ${name} must be a JSON object with media_fbid.`);
    }
    const photo = context.store.photos.get(String(fbid));
    if (!photo || photo.pageId !== context.params.page)
      return replies.badParameter(`(#100) media_fbid ${String(fbid)} is not a photo of this Page.`);
    if (photo.published || photo.attachedTo || photoIds.includes(photo.id))
      return graphError(100, 'These photos were already posted.', { subcode: 1366051 });
    photoIds.push(photo.id);
  }
  if (photoIds.length > context.settings.maxAttachedPhotos)
    return replies.badParameter(
      `(#100) At most ${context.settings.maxAttachedPhotos} photos can be attached.`,
    );
  if (!message && link === undefined && photoIds.length === 0)
    return replies.badParameter('(#100) Missing message or attachment.');
  const twice = duplicate(context, message);
  if (twice) return twice;
  const post = addPost(context, {
    kind: photoIds.length > 0 ? 'photos' : link !== undefined ? 'link' : 'status',
    message,
    ...(link !== undefined && { link }),
    photoIds,
  });
  for (const id of photoIds) {
    const photo = context.store.photos.get(id);
    if (photo) photo.attachedTo = post.id;
  }
  return { status: 200, json: { id: post.id } };
};

/**
 * POST /{page}/photos with `url` (Meta fetches it: JPEG, PNG, GIF, BMP or TIFF, ≤ 4 MB, else
 * 1366046), `message` or `caption`, `alt_text_custom`, `published` (false: no post, kept to attach).
 */
export const photos: Handler<ApiContext> = async (context) => {
  const refused = asPage(context) ?? linkElsewhere(context) ?? tooFast(context);
  if (refused) return refused;
  const fields = context.fields;
  const url = fields.get('url');
  if (!url) return graphError(324, '(#324) Requires upload file');
  const published = fields.get('published') !== 'false';
  const message = fields.get('message') ?? fields.get('caption') ?? '';
  const problem = messageProblem(context, message);
  if (problem) return problem;
  const fetched = await fetchMedia(url, 'image', context.settings);
  context.store.fetchedUrls.push(url);
  if (!fetched.ok) {
    if (fetched.reason === 'unreachable')
      return graphError(100, '(#100) url should represent a valid URL', { subcode: 2069019 });
    return graphError(
      100,
      'Photos should be smaller than 4 MB and saved as JPG, PNG, GIF, TIFF, HEIF or WebP files.',
      { subcode: 1366046 },
    );
  }
  if (published) {
    const twice = duplicate(context, message);
    if (twice) return twice;
  }
  const id = context.store.id('10');
  const altText = fields.get('alt_text_custom') ?? undefined;
  context.store.photos.set(id, {
    id,
    pageId: context.params.page ?? '',
    published,
    ...(altText !== undefined && { altText }),
    fetched: { contentType: fetched.contentType, bytes: fetched.bytes },
    url,
  });
  if (!published) return { status: 200, json: { id } };
  const post = addPost(context, { kind: 'photo', message, photoIds: [id] });
  return { status: 200, json: { id, post_id: post.id } };
};

function newVideo(
  context: ApiContext,
  video: Omit<FakeVideo, 'id' | 'pageId' | 'createdTime' | 'failProcessing'>,
): FakeVideo {
  const made: FakeVideo = {
    ...video,
    id: context.store.id('11'),
    pageId: context.params.page ?? '',
    createdTime: context.settings.now(),
    failProcessing: context.control.failNextProcessing > 0,
  };
  if (made.failProcessing) context.control.failNextProcessing -= 1;
  context.store.videos.set(made.id, made);
  return made;
}

/**
 * POST graph-video…/{page}/videos with `file_url` (Meta fetches it: MP4 or MOV), `description`,
 * `title`: the video is processed over the next status reads, then published on the Page.
 */
export const videos: Handler<ApiContext> = async (context) => {
  const refused = asPage(context, ['publish_video']) ?? linkElsewhere(context) ?? tooFast(context);
  if (refused) return refused;
  const fields = context.fields;
  const fileUrl = fields.get('file_url');
  if (!fileUrl)
    return graphError(100, '(#100) One of source, file_url or fbuploader_video_file_chunk is required.');
  const description = fields.get('description') ?? '';
  const problem = messageProblem(context, description);
  if (problem) return problem;
  const fetched = await fetchMedia(fileUrl, 'video', context.settings);
  context.store.fetchedUrls.push(fileUrl);
  if (!fetched.ok) return graphError(100, '(#100) The video file could not be read.', { subcode: 2069019 });
  const title = fields.get('title') ?? undefined;
  const video = newVideo(context, {
    kind: 'video',
    description,
    ...(title !== undefined && { title }),
    uploading: 'complete',
    processing: 'in_progress',
    publishing: 'not_started',
    pollsLeft: context.settings.processingPolls.video,
    fetched: { contentType: fetched.contentType, bytes: fetched.bytes },
  });
  return { status: 200, json: { id: video.id } };
};

/** Feed videos go to the video host (graph-video.facebook.com); the fake takes them nowhere else. */
export const videosOnGraphHost: Handler<ApiContext> = () =>
  graphError(100, '(#100) Video uploads are made on graph-video.facebook.com.');

function reelsInLastDay(context: ApiContext): number {
  const since = context.settings.now() - 24 * 3600_000;
  return [...context.store.videos.values()].filter(
    (video) =>
      video.kind === 'reel' &&
      video.pageId === context.params.page &&
      video.processing !== 'not_started' &&
      video.createdTime >= since,
  ).length;
}

/**
 * POST /{page}/video_reels: `upload_phase=start` → a video id and its upload URL (30 reels per
 * Page per rolling 24 hours: the 31st is refused); `upload_phase=finish` with `video_id` and
 * `video_state` → processing starts (the upload must be complete first; a reel is finished once).
 */
export const reels: Handler<ApiContext> = (context) => {
  const refused = asPage(context, ['publish_video']) ?? linkElsewhere(context);
  if (refused) return refused;
  const fields = context.fields;
  const phase = fields.get('upload_phase');
  if (reelsInLastDay(context) >= context.settings.reelsPerDay)
    return graphError(4, '(#4) The Page reached its limit of reels published through the API in 24 hours.');
  if (phase === 'start') {
    const video = newVideo(context, {
      kind: 'reel',
      description: '',
      uploading: 'not_started',
      processing: 'not_started',
      publishing: 'not_started',
      pollsLeft: context.settings.processingPolls.reel,
    });
    return {
      status: 200,
      json: { video_id: video.id, upload_url: `${context.baseUrl}/rupload/video-upload/v24.0/${video.id}` },
    };
  }
  if (phase !== 'finish') return replies.badParameter('(#100) upload_phase must be start or finish.');
  const video = context.store.videos.get(fields.get('video_id') ?? '');
  if (video?.kind !== 'reel' || video.pageId !== context.params.page)
    return replies.badParameter('(#100) video_id is not a reel of this Page.');
  if (video.uploading !== 'complete')
    return graphError(100, '(#100) The video has not been uploaded yet.', { subcode: 1363130 });
  if (video.processing !== 'not_started') return graphError(100, '(#100) The reel was already finished.');
  const state = fields.get('video_state') ?? '';
  if (!['PUBLISHED', 'DRAFT', 'SCHEDULED'].includes(state))
    return replies.badParameter('(#100) video_state must be PUBLISHED, DRAFT or SCHEDULED.');
  if (state === 'SCHEDULED' && !fields.has('scheduled_publish_time'))
    return replies.badParameter('(#100) A scheduled reel needs scheduled_publish_time.');
  const description = fields.get('description') ?? '';
  if ([...description].length > context.settings.maxMessage)
    return replies.badParameter('(#100) The description is too long.');
  video.description = description;
  const title = fields.get('title');
  if (title) video.title = title;
  video.processing = 'in_progress';
  if (state !== 'PUBLISHED') video.publishing = 'not_started';
  video.draft = state !== 'PUBLISHED';
  return { status: 200, json: { success: true } };
};
