import type { DeliveryMedia, PublishOutcome, PublishRequest } from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { failed, optionsUnreadable, tokenMissing } from '../publish/failed-outcome.js';
import { runSteps, stepsLeft, stepWarnings } from './after-publish.js';
import { type YouTubeApi, youTubeVideoUrl } from './api.js';
import { type FailedOutcome, processingFailure, rejection, YouTubeStepFailed } from './errors.js';
import {
  YOUTUBE_CONTINUE_AFTER_SECONDS,
  YOUTUBE_PROCESSING_CHECK_SECONDS,
  YOUTUBE_RESUME_AFTER_SECONDS,
} from './limits.js';
import { afterPublishPlan, uploadMetadata } from './options.js';
import { videoState } from './processing.js';
import { readProgress, toPublishProgress, type UploadingProgress, type YouTubeProgress } from './progress.js';
import {
  receivedSoFar,
  sendFrom,
  startSession,
  type UploadContext,
  UploadSessionGone,
  type VideoFile,
} from './resumable-upload.js';
import { visibilityWarnings } from './visibility.js';

export interface YouTubePublishDeps {
  api: YouTubeApi;
  /** YOUTUBE_API_URL (processing status) and YOUTUBE_UPLOAD_URL (the sessions). */
  apiUrl: string;
  uploadUrl: string;
  /** Epoch milliseconds: the time budget and the quota reset. */
  now: () => number;
  /** Bytes per PUT, rounded down to a multiple of 256 KiB. */
  chunkBytes: number;
  /** How long one invocation uploads before it hands over with `pending`. */
  budgetMs: number;
}

/** The whole file is in: the video, and the visibility the insert's answer gave it. */
function processingOf(
  media: string,
  done: { videoId: string; privacyStatus?: string },
): Extract<YouTubeProgress, { state: 'processing' }> {
  return {
    v: 1,
    state: 'processing',
    media,
    videoId: done.videoId,
    ...(done.privacyStatus && { privacyStatus: done.privacyStatus }),
  };
}

/** The one video of the post, stored: YouTube uploads exactly one file per post. */
function theVideo(media: DeliveryMedia[]): DeliveryMedia | undefined {
  return media.length === 1 && media[0]?.kind === 'video' ? media[0] : undefined;
}

/**
 * Publishing one video, in steps that survive the end of an invocation (each kept in progress):
 * 1. a resumable session, then the file in chunks; at the time budget, or when the connection
 *    breaks or YouTube fails mid-upload, `pending` with the session and offset: the next attempt
 *    asks YouTube how much it has and goes on from there (never from zero while the session lives);
 * 2. once YouTube has the whole file (the video id), its processing status, read on each attempt
 *    (`pending` meanwhile) until processed (`published`), failed or rejected.
 * Nothing here can make a second video from one session, so an interruption is `pending`, not
 * `unknown`, except when the worker gave up on the call mid-upload: then `unknown` with the
 * session, which the look-up asks.
 */
export function makeYouTubePublish(deps: YouTubePublishDeps) {
  return async function publish(request: PublishRequest): Promise<PublishOutcome> {
    if (!request.credentials) {
      return tokenMissing('YouTube');
    }
    const metadata = uploadMetadata(request.post);
    if ('invalid' in metadata) {
      return optionsUnreadable('YouTube');
    }
    const video = theVideo(request.media);
    if (!video) return failed('permanent', 'PLATFORM_REJECTED', 'A YouTube post uploads exactly one video.');
    const stored = video.stored;
    if (!stored?.objectKey) {
      return failed(
        'transient',
        'MEDIA_UNAVAILABLE',
        'The video is not stored yet, so it cannot be uploaded.',
      );
    }
    const mediaRef = stored.mediaId;
    const earlier = readProgress(request.progress);
    let current: YouTubeProgress | undefined = earlier?.media === mediaRef ? earlier : undefined;
    const startedAt = deps.now();
    const context: UploadContext = {
      api: deps.api,
      accessToken: request.credentials.accessToken,
      signal: request.signal,
      uploadUrl: deps.uploadUrl,
      now: deps.now,
    };
    const file: VideoFile = {
      objectKey: stored.objectKey,
      total: stored.sizeBytes,
      mimeType: stored.mimeType,
    };
    const withProgress = (outcome: FailedOutcome): FailedOutcome =>
      current ? { ...outcome, progress: toPublishProgress(current) } : outcome;
    const resumeLater = (uploading: UploadingProgress, stage: string, after: number): PublishOutcome => ({
      kind: 'pending',
      progress: toPublishProgress(uploading),
      checkAfterSeconds: after,
      stage,
    });

    try {
      if (current === undefined || current.state === 'uploading') {
        const bytes = request.bytes;
        if (!bytes)
          return failed(
            'transient',
            'MEDIA_UNAVAILABLE',
            'The video bytes could not be read for the upload.',
          );
        let offset = 0;
        if (current?.state === 'uploading') {
          try {
            const state = await receivedSoFar(context, current.session, current.total);
            if (state.kind === 'done') current = processingOf(mediaRef, state);
            else offset = state.offset;
          } catch (error) {
            // The session expired (YouTube keeps one about a week) or was dropped: only a new one can go on.
            if (!(error instanceof UploadSessionGone)) throw error;
            current = undefined;
          }
        }
        if (current === undefined) {
          const publishAt = metadata.resource.status.publishAt;
          if (publishAt && Date.parse(publishAt) <= deps.now()) {
            // YouTube's answer to a past publishAt is not documented (an error, or public at once): neither is asked for.
            return failed(
              'permanent',
              'PUBLISH_AT_PASSED',
              `platformOptions.youtube.publishAt (${publishAt}) had passed when the upload was to start; give a later time.`,
            );
          }
          const session = await startSession(context, metadata, file);
          current = { v: 1, state: 'uploading', media: mediaRef, session, total: file.total, offset: 0 };
        }
        if (current.state === 'uploading') {
          const uploading: UploadingProgress = { ...current, offset };
          current = uploading;
          const state = await sendFrom(context, uploading.session, file, offset, {
            bytes,
            size: deps.chunkBytes,
            keepGoing: () => deps.now() - startedAt < deps.budgetMs,
            onProgress: (at) => {
              uploading.offset = at;
            },
          });
          if (state.kind === 'at') return resumeLater(uploading, 'uploading', YOUTUBE_CONTINUE_AFTER_SECONDS);
          current = processingOf(mediaRef, state);
        }
      }

      const videoId = current.videoId;
      const state = await videoState({ ...context, apiUrl: deps.apiUrl }, videoId);
      switch (state.kind) {
        case 'processed': {
          const processed = current;
          const plan = afterPublishPlan(request.post, request.optionMedia);
          let steps = processed.steps ?? {};
          if (stepsLeft(plan, steps)) {
            const stepContext = {
              ...context,
              apiUrl: deps.apiUrl,
              ...(request.bytes && { bytes: request.bytes }),
            };
            steps = await runSteps(stepContext, videoId, plan, steps);
            const kept = toPublishProgress({ ...processed, steps });
            if (request.signal.aborted && stepsLeft(plan, steps)) {
              return {
                kind: 'unknown',
                code: 'PLATFORM_TIMEOUT',
                message:
                  'YouTube did not answer a step after the upload (the thumbnail, the playlist or the captions).',
                progress: kept,
              };
            }
            if (stepsLeft(plan, steps)) {
              return {
                kind: 'pending',
                progress: kept,
                checkAfterSeconds: YOUTUBE_RESUME_AFTER_SECONDS,
                stage: 'after_upload_steps',
              };
            }
          }
          const warnings = [
            ...visibilityWarnings(metadata, state.privacyStatus ?? processed.privacyStatus, deps.now()),
            ...stepWarnings(plan, steps),
          ];
          return {
            kind: 'published',
            platformPostId: videoId,
            platformPostUrl: youTubeVideoUrl(videoId),
            ...(warnings.length > 0 && { warnings }),
          };
        }
        case 'processing':
          return {
            kind: 'pending',
            progress: toPublishProgress(current),
            checkAfterSeconds: YOUTUBE_PROCESSING_CHECK_SECONDS,
            stage: 'media_processing',
          };
        case 'failed':
          return processingFailure(state.reason);
        case 'rejected':
          return rejection(state.reason);
        case 'gone':
          return failed('permanent', 'PLATFORM_REJECTED', 'The uploaded video is no longer on the channel.', {
            platformRawCode: 'deleted',
          });
      }
    } catch (error) {
      const uploading = current?.state === 'uploading' ? current : undefined;
      if (error instanceof YouTubeStepFailed) {
        // A server error mid-upload: the session keeps what it has; ask it again shortly.
        if (uploading && error.outcome.failure === 'transient') {
          return resumeLater(uploading, 'upload_interrupted', YOUTUBE_RESUME_AFTER_SECONDS);
        }
        return withProgress(error.outcome);
      }
      if (error instanceof UploadSessionGone) {
        // Dropped mid-upload: the next attempt opens a new session (nothing of this one is a video).
        return failed(
          'transient',
          'UPLOAD_SESSION_EXPIRED',
          'YouTube dropped the upload session; the upload starts again.',
        );
      }
      if (error instanceof NoAnswerError || error instanceof RequestNotSentError) {
        if (uploading) {
          if (request.signal.aborted) {
            return {
              kind: 'unknown',
              code: 'PLATFORM_TIMEOUT',
              message: 'YouTube did not answer while the video was uploading; it may have the whole file.',
              progress: toPublishProgress(uploading),
            };
          }
          return resumeLater(uploading, 'upload_interrupted', YOUTUBE_RESUME_AFTER_SECONDS);
        }
        if (current?.state === 'processing') {
          return {
            kind: 'pending',
            progress: toPublishProgress(current),
            checkAfterSeconds: YOUTUBE_RESUME_AFTER_SECONDS,
            stage: 'media_processing',
          };
        }
        // No session yet: an upload session alone publishes nothing, so trying again is safe.
        return error instanceof RequestNotSentError
          ? failed('transient', 'PLATFORM_UNREACHABLE', 'YouTube could not be reached.')
          : failed('transient', 'PLATFORM_NO_ANSWER', 'YouTube did not answer the upload request.');
      }
      // Reading the stored bytes failed (storage): nothing at YouTube is lost.
      return withProgress(failed('transient', 'MEDIA_READ_FAILED', 'The video bytes could not be read.'));
    }
  };
}
