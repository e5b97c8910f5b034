import { contentItems, type Post } from '../../domain/posts.js';
import type { DeliveryMedia, PublishOutcome, PublishRequest } from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { failed, optionsUnreadable, tokenMissing } from '../publish/failed-outcome.js';
import { AcceptedWithoutId, FacebookStepFailed, type FailedOutcome } from './errors.js';
import { type PageContext, permalinkOf } from './graph.js';
import { FACEBOOK_MEDIA_URL_SECONDS } from './limits.js';
import { type FacebookPostType, fileProblem, shapeProblem } from './media-check.js';
import { readFacebookOptions } from './options.js';
import { type FacebookProgress, readProgress, toPublishProgress } from './progress.js';
import {
  type PublishSteps,
  publishPhoto,
  publishPhotos,
  publishReel,
  publishText,
  publishVideo,
} from './publish-steps.js';

export interface FacebookPublishDeps {
  api: PageContext['api'];
  now: () => number;
}

/** The post's text: a multi-photo post's first item's (its one caption). */
export function messageOf(post: Post): string {
  return contentItems(post)[0]?.text ?? '';
}

function refOf(media: DeliveryMedia, index: number): string {
  return media.stored?.mediaId ?? media.url ?? `#${index}`;
}

/**
 * Publishing one post to a Page as the Page (facebook-pages.md §2), as steps that survive the end
 * of an invocation (each recorded in progress):
 * - text: `POST /{page}/feed` (`message`, `link` for the preview card);
 * - image: `POST /{page}/photos` with the photo's URL (Meta fetches it) and the text;
 * - carousel (multi-photo): each photo unpublished first (kept in progress), then one feed post
 *   with `attached_media[i]` form fields;
 * - video: `POST /{page}/videos` on the video host with `file_url`, then its status until ready
 *   (`pending` meanwhile);
 * - reel: start → upload (Meta fetches `file_url`) → finish (PUBLISHED), then its status until
 *   the publishing phase is complete.
 * Media go as presigned URLs of the media bucket. The call that makes the post getting no answer
 * is `unknown`, with when it was sent: the look-up lists the Page's posts from then on.
 */
export function makeFacebookPublish(deps: FacebookPublishDeps) {
  return async function publish(request: PublishRequest): Promise<PublishOutcome> {
    const earlier = readProgress(request.progress);
    const progress: FacebookProgress = { ...earlier };
    delete progress.attemptAt;
    const withProgress = (outcome: FailedOutcome): FailedOutcome => ({
      ...outcome,
      progress: toPublishProgress(progress),
    });

    if (!request.credentials) return tokenMissing('Facebook');
    const read = readFacebookOptions(request.post);
    if ('invalid' in read) return optionsUnreadable('Facebook');
    // The post's `link` is the feed post's `link` (its preview card); the rules refused both.
    const linkUrl = request.post.postType === 'text' ? request.post.link?.url : undefined;
    const options = !read.link && linkUrl ? { ...read, link: linkUrl } : read;
    const problem = shapeProblem(request.post.postType, request.media);
    if (problem) return failed('permanent', 'PLATFORM_REJECTED', problem);
    const unfit = fileProblem(request.media);
    if (unfit) return unfit;
    const postType = request.post.postType as FacebookPostType;
    const context: PageContext = {
      api: deps.api,
      accessToken: request.credentials.accessToken,
      pageId: request.account.networkUserId ?? 'me',
      signal: request.signal,
    };
    const message = messageOf(request.post);
    const urlOf = async (media: DeliveryMedia | undefined): Promise<string> => {
      const key = media?.stored?.objectKey;
      if (!key || !request.mediaUrls) {
        throw new FacebookStepFailed(
          failed(
            'transient',
            'MEDIA_UNAVAILABLE',
            'The media could not be offered to Facebook (no media URL).',
          ),
        );
      }
      return request.mediaUrls.presignGet(key, FACEBOOK_MEDIA_URL_SECONDS, request.signal);
    };
    const published = async (id: string, fallbackUrl: string): Promise<PublishOutcome> => ({
      kind: 'published',
      platformPostId: id,
      platformPostUrl: (await permalinkOf(context, id)) ?? fallbackUrl,
    });
    // When the call that makes the post was sent, until it answered: its loss is `unknown`.
    let sentAt: string | undefined;
    const steps: PublishSteps = {
      context,
      message,
      options,
      progress,
      earlier,
      urlOf,
      published,
      refs: request.media.map(refOf),
      withProgress,
      sending: () => {
        sentAt = new Date(deps.now()).toISOString();
      },
      answered: () => {
        sentAt = undefined;
      },
    };

    try {
      switch (postType) {
        case 'text':
          return await publishText(steps);
        case 'image':
          return await publishPhoto(steps, request.media[0]);
        case 'carousel':
          return await publishPhotos(steps, request.media);
        case 'video':
          return await publishVideo(steps, request.media[0]);
        case 'reel':
          return await publishReel(steps, request.media[0]);
      }
    } catch (error) {
      if (error instanceof FacebookStepFailed) {
        // 506 on a retry: the Page's last post has this text, most likely an earlier attempt's
        // that went through unseen (facebook-pages.md §3). Looked up, not failed.
        if (error.outcome.code === 'DUPLICATE_CONTENT' && request.attempt > 1) {
          return {
            kind: 'unknown',
            code: 'PLATFORM_DUPLICATE_ON_RETRY',
            message:
              'Facebook refused a retry as a duplicate: an earlier attempt may have published the post.',
            progress: toPublishProgress(progress),
          };
        }
        return withProgress(error.outcome);
      }
      if (error instanceof AcceptedWithoutId) {
        return {
          kind: 'unknown',
          code: 'PLATFORM_NO_POST_ID',
          message: `Facebook accepted ${error.message} without naming it.`,
          progress: toPublishProgress({
            ...progress,
            attemptAt: sentAt ?? new Date(deps.now()).toISOString(),
          }),
        };
      }
      if (error instanceof NoAnswerError && sentAt) {
        return {
          kind: 'unknown',
          code: error.code === 'ABORTED' ? 'PLATFORM_TIMEOUT' : 'PLATFORM_NO_ANSWER',
          message: 'Facebook did not answer the publish request; it may have published the post.',
          progress: toPublishProgress({ ...progress, attemptAt: sentAt }),
        };
      }
      if (error instanceof RequestNotSentError) {
        return withProgress(failed('transient', 'PLATFORM_UNREACHABLE', 'Facebook could not be reached.'));
      }
      if (error instanceof NoAnswerError) {
        // A step before the post (an unpublished photo, a reel's start or upload): nothing is
        // public; what Meta made without telling us is never attached to anything.
        return withProgress(
          failed('transient', 'PLATFORM_NO_ANSWER', 'Facebook did not answer while the post was prepared.'),
        );
      }
      if (!sentAt) {
        return withProgress(
          failed('transient', 'MEDIA_URL_FAILED', 'A media URL could not be made for Facebook.'),
        );
      }
      throw error;
    }
  };
}
