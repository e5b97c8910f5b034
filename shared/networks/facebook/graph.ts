import * as z from 'zod';
import { type FacebookApi, readJson } from './api.js';
import { AcceptedWithoutId, type FacebookStep, failOnError, unreadable } from './errors.js';
import { FACEBOOK_LOOKUP_PAGE_SIZE } from './limits.js';

/** A connector call's context: the API, the Page's token and id, the worker's signal. */
export interface PageContext {
  api: FacebookApi;
  accessToken: string;
  pageId: string;
  signal: AbortSignal;
}

const Id = z.union([z.string(), z.number()]).transform(String);
const Created = z.object({ id: Id, post_id: Id.optional() });

async function post(
  context: PageContext,
  step: FacebookStep,
  path: string,
  params: Record<string, string>,
  host: 'graph' | 'video' = 'graph',
): Promise<unknown> {
  const response = await context.api({
    method: 'POST',
    host,
    path,
    params,
    accessToken: context.accessToken,
    signal: context.signal,
  });
  await failOnError(response, step);
  return readJson(response);
}

/** `POST /{page-id}/photos`: a photo, published as a post (its `post_id`) or kept unpublished for a multi-photo post. */
export async function uploadPhoto(
  context: PageContext,
  params: Record<string, string>,
): Promise<{ id: string; postId?: string }> {
  const created = Created.safeParse(await post(context, 'photo', `/${context.pageId}/photos`, params));
  if (!created.success) {
    // A published photo is a post: unreadable, it may exist. An unpublished one is nothing yet.
    throw params.published === 'false' ? unreadable('the photo upload') : new AcceptedWithoutId('the photo');
  }
  return { id: created.data.id, ...(created.data.post_id && { postId: created.data.post_id }) };
}

/** `POST /{page-id}/feed`: a text, link or multi-photo post, by its `<page-id>_<post-id>`. */
export async function createFeedPost(context: PageContext, params: Record<string, string>): Promise<string> {
  const created = Created.safeParse(await post(context, 'feed', `/${context.pageId}/feed`, params));
  if (!created.success) throw new AcceptedWithoutId('the post');
  return created.data.id;
}

/** `POST graph-video…/{page-id}/videos` with `file_url`: the video's id. */
export async function createVideo(context: PageContext, params: Record<string, string>): Promise<string> {
  const created = Created.safeParse(
    await post(context, 'video', `/${context.pageId}/videos`, params, 'video'),
  );
  if (!created.success) throw new AcceptedWithoutId('the video');
  return created.data.id;
}

const ReelStarted = z.object({ video_id: Id });

/** `POST /{page-id}/video_reels?upload_phase=start`: the reel's video id. */
export async function startReel(context: PageContext): Promise<string> {
  const started = ReelStarted.safeParse(
    await post(context, 'reel', `/${context.pageId}/video_reels`, { upload_phase: 'start' }),
  );
  if (!started.success) throw unreadable('the reel upload start');
  return started.data.video_id;
}

/** rupload: Meta fetches the reel's video from `fileUrl`. */
export async function uploadReel(context: PageContext, videoId: string, fileUrl: string): Promise<void> {
  const response = await context.api.uploadReelFromUrl({
    videoId,
    fileUrl,
    accessToken: context.accessToken,
    signal: context.signal,
  });
  await failOnError(response, 'reel');
  await readJson(response);
}

/** `POST /{page-id}/video_reels?upload_phase=finish&video_state=PUBLISHED`: the reel is published once processed. */
export async function finishReel(context: PageContext, params: Record<string, string>): Promise<Response> {
  return context.api({
    method: 'POST',
    path: `/${context.pageId}/video_reels`,
    params: { upload_phase: 'finish', video_state: 'PUBLISHED', ...params },
    accessToken: context.accessToken,
    signal: context.signal,
  });
}

const Phase = z.object({ status: z.string() }).partial().optional();
const VideoStatus = z.object({
  status: z.object({
    video_status: z.string(),
    uploading_phase: Phase,
    processing_phase: Phase,
    publishing_phase: Phase,
  }),
});

/** Where a feed video or a reel is: still at work, published, failed, or never asked to publish. */
export type VideoState = 'processing' | 'published' | 'error' | 'not_published';

/**
 * `GET /{video-id}?fields=status` (§2.4, §2.5): `video_status` error is final; a publishing phase
 * complete (or, for a feed video without phases, `ready`) is published; a publishing phase not
 * started after the processing finished means the finish step never reached Meta.
 */
export async function videoState(context: PageContext, videoId: string): Promise<VideoState> {
  const response = await context.api({
    method: 'GET',
    path: `/${videoId}`,
    params: { fields: 'status' },
    accessToken: context.accessToken,
    signal: context.signal,
  });
  await failOnError(response, 'status');
  const parsed = VideoStatus.safeParse(await readJson(response));
  if (!parsed.success) throw unreadable('the video status');
  const { video_status: overall, processing_phase, publishing_phase } = parsed.data.status;
  if (overall === 'error' || processing_phase?.status === 'error' || publishing_phase?.status === 'error')
    return 'error';
  if (publishing_phase?.status === 'complete') return 'published';
  if (publishing_phase === undefined) return overall === 'ready' ? 'published' : 'processing';
  // Nothing processed or published: the finish step (which starts both) never reached Meta.
  if (publishing_phase.status === 'not_started' && processing_phase?.status === 'not_started')
    return 'not_published';
  return 'processing';
}

const Listed = z.object({
  data: z.array(
    z.object({
      id: Id,
      message: z.string().optional(),
      description: z.string().optional(),
      created_time: z.string().optional(),
      permalink_url: z.string().optional(),
    }),
  ),
});
export type ListedPost = z.infer<typeof Listed>['data'][number];

/**
 * The Page's latest posts (`published_posts`, newest first) or videos (`videos`) made since
 * `sinceSeconds`: what a look-up matches the post's text against. Undefined when the answer is
 * not a list.
 */
export async function recentPosts(
  context: PageContext,
  edge: 'published_posts' | 'videos',
  sinceSeconds: number,
): Promise<ListedPost[] | undefined> {
  const response = await context.api({
    method: 'GET',
    path: `/${context.pageId}/${edge}`,
    params: {
      fields:
        edge === 'videos'
          ? 'id,description,created_time,permalink_url'
          : 'id,message,created_time,permalink_url',
      since: String(sinceSeconds),
      limit: String(FACEBOOK_LOOKUP_PAGE_SIZE),
    },
    accessToken: context.accessToken,
    signal: context.signal,
  });
  await failOnError(response, 'lookup');
  const parsed = Listed.safeParse(await readJson(response));
  return parsed.success ? parsed.data.data : undefined;
}

const Permalink = z.object({ permalink_url: z.string().min(1) });

/** `GET /{post-id}?fields=permalink_url`; undefined when Meta does not say (never fails a post). */
export async function permalinkOf(context: PageContext, id: string): Promise<string | undefined> {
  try {
    const response = await context.api({
      method: 'GET',
      path: `/${id}`,
      params: { fields: 'permalink_url' },
      accessToken: context.accessToken,
      signal: context.signal,
    });
    if (!response.ok) return undefined;
    const parsed = Permalink.safeParse(await readJson(response));
    if (!parsed.success) return undefined;
    // Meta gives video permalinks as paths (`/{page}/videos/{id}/`).
    return new URL(parsed.data.permalink_url, 'https://www.facebook.com').toString();
  } catch {
    return undefined;
  }
}
