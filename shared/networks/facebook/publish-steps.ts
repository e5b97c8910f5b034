import type { DeliveryMedia, PublishOutcome } from '../../ports/connector.js';
import { failed } from '../publish/failed-outcome.js';
import { readJson } from './api.js';
import { FacebookStepFailed, type FailedOutcome, failureOf, readGraphError } from './errors.js';
import {
  createFeedPost,
  createVideo,
  finishReel,
  type PageContext,
  startReel,
  uploadPhoto,
  uploadReel,
  videoState,
} from './graph.js';
import {
  FACEBOOK_CHECK_AFTER_SECONDS,
  facebookPostUrl,
  facebookReelUrl,
  facebookVideoUrl,
} from './limits.js';
import type { FacebookOptions } from './options-schema.js';
import { type FacebookProgress, toPublishProgress, type UnpublishedPhoto } from './progress.js';

/** What every post type's steps share (publish.ts builds it per attempt). */
export interface PublishSteps {
  context: PageContext;
  message: string;
  options: FacebookOptions;
  /** This attempt's progress, changed as steps finish. */
  progress: FacebookProgress;
  /** The progress the attempt started from. */
  earlier: FacebookProgress;
  /** Each media item's stable reference (its media id, or URL). */
  refs: readonly string[];
  urlOf(media: DeliveryMedia | undefined): Promise<string>;
  published(id: string, fallbackUrl: string): Promise<PublishOutcome>;
  withProgress(outcome: FailedOutcome): FailedOutcome;
  /** Right before the call that makes the post: its loss is `unknown` from here. */
  sending(): void;
  /** The call that makes the post answered. */
  answered(): void;
}

const altOf = (media: DeliveryMedia | undefined): Record<string, string> =>
  media?.alt ? { alt_text_custom: media.alt } : {};

const messageParam = (message: string): Record<string, string> => (message ? { message } : {});

export async function publishText(steps: PublishSteps): Promise<PublishOutcome> {
  steps.sending();
  const id = await createFeedPost(steps.context, {
    ...messageParam(steps.message),
    ...(steps.options.link && { link: steps.options.link }),
  });
  steps.answered();
  return steps.published(id, facebookPostUrl(id));
}

export async function publishPhoto(
  steps: PublishSteps,
  media: DeliveryMedia | undefined,
): Promise<PublishOutcome> {
  const url = await steps.urlOf(media);
  steps.sending();
  const photo = await uploadPhoto(steps.context, {
    url,
    ...messageParam(steps.message),
    ...altOf(media),
    published: 'true',
  });
  steps.answered();
  const id = photo.postId ?? `${steps.context.pageId}_${photo.id}`;
  return steps.published(id, facebookPostUrl(id));
}

/**
 * A multi-photo post: each photo uploaded unpublished (no story of its own), kept in progress so a
 * retry never uploads it again, then one feed post attaching them all, form-encoded (§2.3: a JSON
 * `attached_media` gives a text-only post).
 */
export async function publishPhotos(
  steps: PublishSteps,
  media: readonly DeliveryMedia[],
): Promise<PublishOutcome> {
  const photos: UnpublishedPhoto[] = [];
  for (const [index, photo] of (steps.earlier.photos ?? []).entries()) {
    if (photo.ref !== steps.refs[index]) break;
    photos.push(photo);
  }
  steps.progress.photos = photos;
  for (const [index, item] of media.entries()) {
    if (photos[index]) continue;
    const url = await steps.urlOf(item);
    const uploaded = await uploadPhoto(steps.context, { url, ...altOf(item), published: 'false' });
    photos[index] = { ref: steps.refs[index] ?? `#${index}`, id: uploaded.id };
  }
  const attached = Object.fromEntries(
    photos.map((photo, index) => [`attached_media[${index}]`, JSON.stringify({ media_fbid: photo.id })]),
  );
  steps.sending();
  const id = await createFeedPost(steps.context, { ...messageParam(steps.message), ...attached });
  steps.answered();
  return steps.published(id, facebookPostUrl(id));
}

/** A video or reel still processing: checked again later, never waited for in the invocation. */
function pending(steps: PublishSteps): PublishOutcome {
  return {
    kind: 'pending',
    progress: toPublishProgress(steps.progress),
    checkAfterSeconds: FACEBOOK_CHECK_AFTER_SECONDS,
    stage: 'video_processing',
  };
}

function processingFailed(steps: PublishSteps, what: string): FailedOutcome {
  // The video is lost for good at Meta; a retry starts again from the upload.
  delete steps.progress.videoId;
  delete steps.progress.uploaded;
  delete steps.progress.finished;
  return steps.withProgress(
    failed('permanent', 'MEDIA_PROCESSING_FAILED', `Facebook could not process the ${what}.`, {
      platformRawCode: 'video_status:error',
    }),
  );
}

export async function publishVideo(
  steps: PublishSteps,
  media: DeliveryMedia | undefined,
): Promise<PublishOutcome> {
  const { context, progress } = steps;
  if (!progress.videoId) {
    const url = await steps.urlOf(media);
    steps.sending();
    progress.videoId = await createVideo(context, {
      file_url: url,
      ...(steps.message && { description: steps.message }),
      ...(steps.options.title && { title: steps.options.title }),
    });
    steps.answered();
  }
  const state = await videoState(context, progress.videoId);
  if (state === 'error') return processingFailed(steps, 'video');
  if (state !== 'published') return pending(steps);
  return steps.published(progress.videoId, facebookVideoUrl(context.pageId, progress.videoId));
}

/**
 * A reel (§2.5): start, upload (Meta fetches the URL), finish with PUBLISHED. Each step is kept in
 * progress; a finish sent without an answer is settled by the video's status before it is sent
 * again (the same video id: never a second reel).
 */
export async function publishReel(
  steps: PublishSteps,
  media: DeliveryMedia | undefined,
): Promise<PublishOutcome> {
  const { context, progress } = steps;
  if (!progress.videoId) {
    progress.videoId = await startReel(context);
    delete progress.uploaded;
    delete progress.finished;
  }
  if (!progress.uploaded) {
    await uploadReel(context, progress.videoId, await steps.urlOf(media));
    progress.uploaded = true;
  }
  if (!progress.finished && steps.earlier.attemptAt) {
    const state = await videoState(context, progress.videoId);
    if (state !== 'not_published') progress.finished = true;
  }
  if (!progress.finished) {
    steps.sending();
    const response = await finishReel(context, {
      video_id: progress.videoId,
      ...(steps.message && { description: steps.message }),
      ...(steps.options.title && { title: steps.options.title }),
    });
    if (!response.ok) throw new FacebookStepFailed(failureOf(await readGraphError(response), 'reel'));
    // Read to its end: a body cut off is an answer lost (NoAnswerError), the finish perhaps done.
    await readJson(response);
    steps.answered();
    progress.finished = true;
  }
  const state = await videoState(context, progress.videoId);
  if (state === 'error') return processingFailed(steps, 'reel');
  if (state !== 'published') return pending(steps);
  return {
    kind: 'published',
    platformPostId: progress.videoId,
    platformPostUrl: facebookReelUrl(progress.videoId),
  };
}
