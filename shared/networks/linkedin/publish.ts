import type { DeliveryMedia, PublishOutcome, PublishRequest } from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { failed, optionsUnreadable, tokenMissing } from '../publish/failed-outcome.js';
import { type LinkedInApi, linkedInPostUrl } from './api.js';
import { buildArticle } from './article.js';
import { assertMayPostAsPages, assertMayPostFor, memberUrn } from './author.js';
import {
  type FailedOutcome,
  failureOf,
  isDuplicatePost,
  LinkedInStepFailed,
  readLinkedInError,
} from './errors.js';
import { LINKEDIN_CHECK_AFTER_SECONDS } from './limits.js';
import {
  processingStatus,
  type UploadContext,
  uploadImageBytes,
  uploadVideo,
  uploadWhole,
} from './media-upload.js';
import { readLinkedInOptions } from './options.js';
import { contentShapeOf, postBody, type UploadedMedia } from './post-body.js';
import { type LinkedInProgress, type MediaDone, readProgress, toPublishProgress } from './progress.js';

export interface LinkedInPublishDeps {
  api: LinkedInApi;
  /** Epoch milliseconds. */
  now: () => number;
}

/** The post's media item as progress names it: its media id (URL media get one when stored). */
function refOf(media: DeliveryMedia, index: number): string {
  return media.stored?.mediaId ?? media.url ?? `#${index}`;
}

/**
 * Publishing one post, as steps that survive the end of an invocation (each recorded in progress):
 * 1. who posts: the member, or a Page they hold a posting role on (checked once);
 * 2. the media, in order: uploaded once each; a video or document LinkedIn is still processing
 *    answers `pending`, and the next attempt asks for its status instead of uploading again;
 * 3. the post itself. A request that got no answer is `unknown` (the worker looks it up with
 *    findPublished); every step before it failed for certain, so it is a `failed` that keeps
 *    what was done.
 */
export function makeLinkedInPublish(deps: LinkedInPublishDeps) {
  return async function publish(request: PublishRequest): Promise<PublishOutcome> {
    const earlier = readProgress(request.progress);
    /** Each media item's upload, by position; the progress returned names them. */
    const done: MediaDone[] = [...(earlier.media ?? [])];
    const progress: LinkedInProgress = { ...earlier, media: done };
    delete progress.createSentAt;
    const withProgress = (outcome: FailedOutcome): FailedOutcome => ({
      ...outcome,
      progress: toPublishProgress({
        ...progress,
        ...(earlier.createSentAt && { createSentAt: earlier.createSentAt }),
      }),
    });

    if (!request.credentials) {
      return tokenMissing('LinkedIn');
    }
    const options = readLinkedInOptions(request.post);
    if ('invalid' in options) {
      return optionsUnreadable('LinkedIn');
    }
    const shape = contentShapeOf(request.media);
    if (shape === 'unsupported') {
      return failed(
        'permanent',
        'PLATFORM_REJECTED',
        'LinkedIn publishes one video or document, or 1 to 20 images, per post.',
      );
    }
    const contentClash = contentClashOf(request, options.poll !== undefined);
    if (contentClash) return failed('permanent', 'PLATFORM_REJECTED', contentClash);
    const bytes = request.bytes;
    const context = { api: deps.api, accessToken: request.credentials.accessToken, signal: request.signal };
    /** When `POST /rest/posts` left: from then on, a missing answer leaves the outcome unknown. */
    let sentAt: string | undefined;
    try {
      const author = options.organization ?? (await memberUrn(context, request.account));
      if (options.organization) assertMayPostAsPages(request.account, options.organization);
      if (options.organization && earlier.author !== author) await assertMayPostFor(context, author);
      // Media belong to their owner: uploads made for another author cannot be used.
      if (earlier.author !== undefined && earlier.author !== author) {
        done.length = 0;
        delete progress.thumbnail;
      }
      progress.author = author;

      const uploaded: UploadedMedia[] = [];
      for (const [index, media] of request.media.entries()) {
        const ref = refOf(media, index);
        let item: MediaDone | undefined = done[index]?.ref === ref ? done[index] : undefined;
        if (!item) {
          // A list that changed since the last attempt: nothing after this point can be trusted.
          done.length = index;
          if (!bytes) {
            return withProgress(
              failed('transient', 'MEDIA_UNAVAILABLE', 'The media bytes could not be read for the upload.'),
            );
          }
          const upload: UploadContext = { ...context, owner: author, bytes };
          const urn =
            media.kind === 'video'
              ? await uploadVideo(upload, media)
              : await uploadWhole(upload, { ...media, kind: media.kind });
          item = { ref, urn, state: media.kind === 'image' ? 'ready' : 'processing' };
          done[index] = item;
        }
        if (item.state === 'processing' && media.kind !== 'image') {
          const status = await processingStatus(context, media.kind, item.urn);
          if (status === 'PROCESSING') {
            return {
              kind: 'pending',
              progress: toPublishProgress(progress),
              checkAfterSeconds: LINKEDIN_CHECK_AFTER_SECONDS[media.kind],
              stage: 'media_processing',
            };
          }
          if (status === 'PROCESSING_FAILED' || status === 'WAITING_UPLOAD') {
            done.length = index;
            return withProgress(
              status === 'PROCESSING_FAILED'
                ? failed(
                    'permanent',
                    'MEDIA_PROCESSING_FAILED',
                    `LinkedIn could not process the ${media.kind}.`,
                    {
                      platformRawCode: 'PROCESSING_FAILED',
                    },
                  )
                : // LinkedIn never received all of it: upload it again on the next attempt.
                  failed(
                    'transient',
                    'MEDIA_UPLOAD_INCOMPLETE',
                    `LinkedIn did not receive the whole ${media.kind}.`,
                    {
                      platformRawCode: 'WAITING_UPLOAD',
                    },
                  ),
            );
          }
          item.state = 'ready';
        }
        uploaded.push({ media, urn: item.urn });
      }

      const link = request.post.link;
      const card = link
        ? await buildArticle({
            link,
            ...(request.linkPreview && { reader: request.linkPreview }),
            ...(request.linkThumbnail && { thumbnail: request.linkThumbnail }),
            ...(progress.thumbnail && { uploadedThumbnail: progress.thumbnail }),
            upload: {
              stored: (media) => {
                if (!bytes) throw new Error('The thumbnail bytes cannot be read.');
                return uploadWhole({ ...context, owner: author, bytes }, media);
              },
              bytes: (image) => uploadImageBytes({ ...context, owner: author }, image),
            },
            signal: request.signal,
          })
        : undefined;
      if (card?.thumbnailUrn) progress.thumbnail = card.thumbnailUrn;

      sentAt = new Date(deps.now()).toISOString();
      const response = await deps.api({
        method: 'POST',
        path: '/rest/posts',
        json: postBody({
          post: request.post,
          author,
          visibility: options.visibility,
          uploaded,
          ...(options.poll && { poll: options.poll }),
          ...(card && { article: card.article }),
        }),
        ...context,
      });
      const warnings = card?.warnings.length ? { warnings: card.warnings } : {};
      if (response.ok) {
        const id = response.headers.get('x-restli-id');
        if (!id) {
          // Accepted, but which post it is cannot be told: the look-up settles it.
          return {
            kind: 'unknown',
            code: 'PLATFORM_NO_POST_ID',
            message: 'LinkedIn accepted the post without naming it.',
            progress: toPublishProgress({ ...progress, createSentAt: sentAt }),
          };
        }
        return { kind: 'published', platformPostId: id, platformPostUrl: linkedInPostUrl(id), ...warnings };
      }
      const facts = await readLinkedInError(response);
      // An earlier attempt's post may have landed unseen: LinkedIn then names it as the original.
      if (isDuplicatePost(facts) && earlier.createSentAt && facts.duplicateOf) {
        return {
          kind: 'published',
          platformPostId: facts.duplicateOf,
          platformPostUrl: linkedInPostUrl(facts.duplicateOf),
          ...warnings,
        };
      }
      return withProgress(failureOf(facts, 'post'));
    } catch (error) {
      if (error instanceof LinkedInStepFailed) return withProgress(error.outcome);
      if (error instanceof NoAnswerError && sentAt) {
        return {
          kind: 'unknown',
          code: error.code === 'ABORTED' ? 'PLATFORM_TIMEOUT' : 'PLATFORM_NO_ANSWER',
          message: 'LinkedIn did not answer the post request; it may have published it.',
          progress: toPublishProgress({ ...progress, createSentAt: sentAt }),
        };
      }
      if (error instanceof RequestNotSentError) {
        return withProgress(
          failed('transient', 'PLATFORM_UNREACHABLE', 'LinkedIn could not be reached.', {}),
        );
      }
      if (error instanceof NoAnswerError) {
        return withProgress(
          failed('transient', 'PLATFORM_NO_ANSWER', 'LinkedIn did not answer while the media were prepared.'),
        );
      }
      // Reading the media bytes failed (storage), before anything was posted.
      if (!sentAt) {
        return withProgress(failed('transient', 'MEDIA_READ_FAILED', 'The media bytes could not be read.'));
      }
      throw error;
    }
  };
}

/**
 * A poll, an article (the post's link) and media are each a post's one `content` on LinkedIn: the
 * rules refuse them together at create; this guards a post stored before them. Undefined: none.
 */
function contentClashOf(request: PublishRequest, hasPoll: boolean): string | undefined {
  const hasMedia = request.media.length > 0;
  const hasLink = request.post.link !== undefined;
  if (hasPoll && (hasMedia || hasLink))
    return 'LinkedIn takes a poll only on a post without media or a link.';
  if (hasLink && hasMedia) return 'LinkedIn shows a link card only on a post without media.';
  return undefined;
}
