import { graphError, type Reply, replies } from './http.js';
import { fetchMedia, judge } from './media-fetch.js';
import type { ApiContext, Handler } from './route.js';
import type { FakePost, FakeVideo } from './store.js';

/** `fields=a,b.summary(x).limit(0),c`: the commas inside parentheses do not split. */
function splitFields(fields: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of fields) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += char;
  }
  out.push(current);
  return out.map((field) => field.trim()).filter(Boolean);
}

/** Meta's time format: `2026-05-10T09:00:00+0000`. */
const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

function postPermalink(post: FakePost): string {
  const [pageId, storyId] = post.id.split('_');
  return `https://www.facebook.com/${pageId}/posts/${storyId}`;
}

/**
 * rupload (POST /rupload/video-upload/{v}/{video-id}): the reel's bytes, either fetched by Meta
 * from the `file_url` header or sent as the body with `offset` and `file_size`. The Page token
 * comes as `Authorization: OAuth …`. A reel that breaks the spec (§2.5: 3–90 s, 9:16, at least
 * 540×960) is taken, then fails processing, as Meta reports it.
 */
export const rupload: Handler<ApiContext> = async (context) => {
  const video = context.store.videos.get(context.params.video ?? '');
  if (video?.kind !== 'reel') return replies.notFound(context.params.video ?? '');
  const { token } = context;
  if (token.kind !== 'page' || token.pageId !== video.pageId) return replies.notAsPage();
  if (!/^OAuth /.test(String(context.headers.authorization ?? '')))
    return {
      status: 401,
      json: { debug_info: { retriable: false, type: 'AuthException', message: 'OAuth header required' } },
    };
  const fileUrl = context.headers.file_url;
  let fetched: Awaited<ReturnType<typeof fetchMedia>>;
  if (typeof fileUrl === 'string' && fileUrl) {
    fetched = await fetchMedia(fileUrl, 'video', context.settings);
    context.store.fetchedUrls.push(fileUrl);
  } else {
    if (context.headers.offset !== '0' || Number(context.headers.file_size) !== context.body.length)
      return {
        status: 400,
        json: {
          debug_info: {
            retriable: false,
            type: 'OffsetInvalidError',
            message: 'offset and file_size must describe the body',
          },
        },
      };
    fetched = await judge(new Uint8Array(context.body), 'video/mp4', 'video', context.settings);
  }
  if (!fetched.ok)
    return {
      status: 400,
      json: {
        debug_info: {
          retriable: false,
          type: 'ProcessingFailedError',
          message: 'The video could not be read.',
        },
      },
    };
  video.uploading = 'complete';
  video.fetched = fetched;
  const { min, max } = context.settings.reelSeconds;
  const seconds = fetched.durationSeconds;
  const { width, height } = fetched;
  const offSpec =
    (seconds !== undefined && (seconds < min || seconds > max)) ||
    (width !== undefined &&
      height !== undefined &&
      (Math.abs(width / height - 9 / 16) > 0.01 || width < 540 || height < 960));
  if (offSpec) video.failProcessing = true;
  return { status: 200, json: { success: true } };
};

/** A status read moves a video on: processing for a few reads, then published (or failed). */
function advance(context: ApiContext, video: FakeVideo): void {
  if (video.processing !== 'in_progress') return;
  if (video.pollsLeft > 0) {
    video.pollsLeft -= 1;
    return;
  }
  if (video.failProcessing) {
    video.processing = 'error';
    return;
  }
  video.processing = 'complete';
  if (video.draft) return;
  video.publishing = 'complete';
  const post: FakePost = {
    id: `${video.pageId}_${video.id}`,
    pageId: video.pageId,
    kind: video.kind,
    message: video.description,
    photoIds: [],
    videoId: video.id,
    createdTime: context.settings.now(),
  };
  context.store.posts.push(post);
  video.postId = post.id;
}

function videoStatus(video: FakeVideo) {
  const overall =
    video.processing === 'error'
      ? 'error'
      : video.processing === 'complete'
        ? 'ready'
        : video.uploading === 'complete' && video.processing === 'not_started'
          ? 'upload_complete'
          : 'processing';
  return {
    video_status: overall,
    processing_progress: video.processing === 'complete' ? 100 : 0,
    uploading_phase: { status: video.uploading },
    processing_phase: { status: video.processing },
    publishing_phase: { status: video.publishing },
  };
}

/**
 * A post's or video's engagement fields as Meta answers them (with `pages_read_engagement`):
 * `reactions` and `comments` with a summary, `shares` on feed posts only and left out at 0; a
 * field a video does not have (`shares`) is refused (100), as Meta refuses unknown fields.
 */
function engagementOf(
  context: ApiContext,
  id: string,
  fields: readonly string[],
  kind: 'post' | 'video',
): Reply | Record<string, unknown> {
  const asked = fields.map((field) => field.split('.')[0]);
  if (!asked.some((field) => field === 'reactions' || field === 'comments' || field === 'shares')) return {};
  if (!context.token.scopes.includes('pages_read_engagement'))
    return graphError(10, '(#10) This endpoint requires the pages_read_engagement permission.');
  if (kind === 'video' && asked.includes('shares'))
    return graphError(100, '(#100) Tried accessing nonexisting field (shares) on node type (Video)');
  const counts = context.store.engagement.get(id) ?? { reactions: 0, comments: 0, shares: 0 };
  const summary = (total: number) => ({ data: [], summary: { total_count: total } });
  return {
    ...(asked.includes('reactions') && { reactions: summary(counts.reactions) }),
    ...(asked.includes('comments') && { comments: summary(counts.comments) }),
    ...(asked.includes('shares') && counts.shares > 0 && { shares: { count: counts.shares } }),
  };
}

/** GET /{id}?fields=…: a video's `status` (and permalink), a post's or photo's `permalink_url`, engagement, a Page's followers. */
export const object: Handler<ApiContext> = (context) => {
  const id = context.params.id ?? '';
  const fields = splitFields(context.fields.get('fields') ?? 'id');
  const owner = context.store.pageOf(id);
  if (owner) {
    if (context.token.pageId !== id && !context.token.pageIds.includes(id)) return replies.notFound(id);
    return {
      status: 200,
      json: {
        id,
        ...(fields.includes('name') && { name: owner.page.name }),
        ...(fields.includes('followers_count') && { followers_count: owner.page.followers ?? 0 }),
      },
    };
  }
  const canRead = (pageId: string): Reply | undefined =>
    context.token.pageId === pageId || context.token.pageIds.includes(pageId)
      ? undefined
      : replies.notFound(id);
  const video = context.store.videos.get(id);
  if (video) {
    const refused = canRead(video.pageId);
    if (refused) return refused;
    if (fields.includes('status')) advance(context, video);
    const engagement = engagementOf(context, id, fields, 'video');
    if ('status' in engagement) return engagement as Reply;
    return {
      status: 200,
      json: {
        id,
        ...engagement,
        ...(fields.includes('status') && { status: videoStatus(video) }),
        ...(fields.includes('permalink_url') && {
          permalink_url:
            video.kind === 'reel' ? `/reel/${video.id}/` : `/${video.pageId}/videos/${video.id}/`,
        }),
        ...(fields.includes('description') && { description: video.description }),
      },
    };
  }
  const post = context.store.posts.find((candidate) => candidate.id === id);
  if (post) {
    const refused = canRead(post.pageId);
    if (refused) return refused;
    // A reel's or video's story is read through its video id; the post id reads as a post.
    const engagement = engagementOf(context, id, fields, 'post');
    if ('status' in engagement) return engagement as Reply;
    return {
      status: 200,
      json: {
        id,
        ...engagement,
        ...(fields.includes('permalink_url') && { permalink_url: postPermalink(post) }),
        ...(fields.includes('message') && { message: post.message }),
      },
    };
  }
  const photo = context.store.photos.get(id);
  if (photo) {
    const refused = canRead(photo.pageId);
    if (refused) return refused;
    return {
      status: 200,
      json: {
        id,
        ...(fields.includes('permalink_url') && {
          permalink_url: `https://www.facebook.com/photo/?fbid=${id}`,
        }),
      },
    };
  }
  return replies.notFound(id);
};

function listing(context: ApiContext): { since: number; limit: number } | Reply {
  const pageId = context.params.page ?? '';
  if (!context.store.pageOf(pageId)) return replies.notFound(pageId);
  if (context.token.pageId !== pageId && !context.token.pageIds.includes(pageId))
    return graphError(190, 'Invalid OAuth access token for this Page.', { subcode: 467 });
  if (context.token.kind !== 'page')
    return graphError(210, '(#210) A page access token is required to request this resource.');
  const sinceRaw = context.fields.get('since');
  const since = sinceRaw === null ? 0 : Number(sinceRaw) * 1000;
  if (!Number.isFinite(since)) return replies.badParameter('(#100) since must be a UNIX time.');
  const limit = Math.max(1, Math.min(100, Number(context.fields.get('limit') ?? 25) || 25));
  return { since, limit };
}

/** GET /{page}/published_posts: the Page's own posts (reels are not among them, §2.5), newest first. */
export const publishedPosts: Handler<ApiContext> = (context) => {
  const asked = listing(context);
  if ('status' in asked) return asked;
  const data = context.store
    .postsOf(context.params.page ?? '')
    .filter((post) => post.kind !== 'reel' && post.createdTime >= asked.since)
    .slice(0, asked.limit)
    .map((post) => ({
      id: post.id,
      ...(post.message && { message: post.message }),
      created_time: graphTime(post.createdTime),
      permalink_url: postPermalink(post),
    }));
  return { status: 200, json: { data } };
};

/** GET /{page}/videos: the Page's feed videos (still processing ones too: they are the Page's), newest first. */
export const pageVideos: Handler<ApiContext> = (context) => {
  const asked = listing(context);
  if ('status' in asked) return asked;
  const data = [...context.store.videos.values()]
    .filter(
      (video) =>
        video.kind === 'video' &&
        video.pageId === context.params.page &&
        video.processing !== 'error' &&
        video.createdTime >= asked.since,
    )
    .sort((a, b) => b.createdTime - a.createdTime)
    .slice(0, asked.limit)
    .map((video) => ({
      id: video.id,
      ...(video.description && { description: video.description }),
      created_time: graphTime(video.createdTime),
      permalink_url: `/${video.pageId}/videos/${video.id}/`,
    }));
  return { status: 200, json: { data } };
};
