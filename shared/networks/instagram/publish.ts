import type { DeliveryMedia, PublishOutcome, PublishRequest } from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { failed, optionsUnreadable, tokenMissing } from '../publish/failed-outcome.js';
import { readJson } from './api.js';
import {
  captionOf,
  carouselItemParams,
  carouselParams,
  type InstagramPostType,
  singleParams,
  userTagsOf,
} from './container-params.js';
import { type FailedOutcome, failureOf, InstagramStepFailed, readGraphError } from './errors.js';
import {
  type ContainerStatus,
  containerStatus,
  createContainer,
  type GraphContext,
  PublishedAnswer,
  permalinkOf,
  publishContainer,
} from './graph.js';
import {
  INSTAGRAM_CAROUSEL_MAX_ITEMS,
  INSTAGRAM_CAROUSEL_MIN_ITEMS,
  INSTAGRAM_CHECK_AFTER_SECONDS,
  INSTAGRAM_IMAGE_TYPES,
  INSTAGRAM_MAX_IMAGE_BYTES,
  INSTAGRAM_MAX_VIDEO_BYTES,
  INSTAGRAM_MEDIA_URL_SECONDS,
  INSTAGRAM_VIDEO_TYPES,
  instagramProfileUrl,
} from './limits.js';
import { findPublishedMedia } from './media-search.js';
import { readInstagramOptions } from './options.js';
import { type ChildContainer, type InstagramProgress, readProgress, toPublishProgress } from './progress.js';
import { assertRoomToPublish } from './publishing-limit.js';

export interface InstagramPublishDeps {
  api: GraphContext['api'];
  now: () => number;
}

function refOf(media: DeliveryMedia, index: number): string {
  return media.stored?.mediaId ?? media.url ?? `#${index}`;
}

/** Why the post cannot be made on Instagram as it stands, or undefined (the rules refused most at create). */
function shapeProblem(postType: string, media: readonly DeliveryMedia[]): string | undefined {
  const kinds = media.map((item) => item.kind);
  if (kinds.some((kind) => kind === 'document'))
    return 'Instagram publishes images and videos, not documents.';
  switch (postType) {
    case 'image':
      return kinds.length === 1 && kinds[0] === 'image'
        ? undefined
        : 'An Instagram image post has one image.';
    case 'reel':
      return kinds.length === 1 && kinds[0] === 'video' ? undefined : 'An Instagram reel has one video.';
    case 'story':
      return kinds.length === 1 ? undefined : 'An Instagram story has one image or video.';
    case 'carousel':
      return kinds.length >= INSTAGRAM_CAROUSEL_MIN_ITEMS && kinds.length <= INSTAGRAM_CAROUSEL_MAX_ITEMS
        ? undefined
        : `An Instagram carousel has ${INSTAGRAM_CAROUSEL_MIN_ITEMS} to ${INSTAGRAM_CAROUSEL_MAX_ITEMS} items.`;
    default:
      return `Instagram does not publish ${postType} posts.`;
  }
}

/**
 * A stored file Instagram is sure to refuse when it fetches it (not JPEG, too large): refused here,
 * before a container is made for nothing. Instagram checks again (by the bytes) when it fetches.
 */
function fileProblem(media: readonly DeliveryMedia[]): FailedOutcome | undefined {
  for (const [index, item] of media.entries()) {
    const stored = item.stored;
    if (!stored || item.kind === 'document') continue;
    const image = item.kind === 'image';
    const types = image ? INSTAGRAM_IMAGE_TYPES : INSTAGRAM_VIDEO_TYPES;
    if (!types.includes(stored.mimeType.toLowerCase())) {
      return failed(
        'permanent',
        'MEDIA_TYPE_UNSUPPORTED',
        image
          ? `Instagram publishes JPEG images only; media item ${index + 1} is ${stored.mimeType}.`
          : `Instagram publishes MP4 or MOV videos only; media item ${index + 1} is ${stored.mimeType}.`,
      );
    }
    const max = image ? INSTAGRAM_MAX_IMAGE_BYTES : INSTAGRAM_MAX_VIDEO_BYTES;
    if (stored.sizeBytes > max) {
      return failed(
        'permanent',
        'MEDIA_TOO_LARGE',
        image
          ? `Instagram takes images up to 8 MiB; media item ${index + 1} is larger.`
          : `Instagram takes videos up to 300 MB; media item ${index + 1} is larger.`,
      );
    }
  }
  return undefined;
}

/** A reel cover Instagram is sure to refuse: JPEG only, up to 8 MiB, like its images. */
function coverFileProblem(cover: DeliveryMedia): FailedOutcome | undefined {
  const stored = cover.stored;
  if (cover.kind !== 'image') {
    return failed('permanent', 'MEDIA_TYPE_UNSUPPORTED', "Instagram takes a reel's cover as a JPEG image.");
  }
  if (!stored) return undefined;
  if (!INSTAGRAM_IMAGE_TYPES.includes(stored.mimeType.toLowerCase())) {
    return failed(
      'permanent',
      'MEDIA_TYPE_UNSUPPORTED',
      `Instagram takes a reel's cover as a JPEG image; the cover is ${stored.mimeType}.`,
    );
  }
  if (stored.sizeBytes > INSTAGRAM_MAX_IMAGE_BYTES) {
    return failed(
      'permanent',
      'MEDIA_TOO_LARGE',
      "Instagram takes a reel's cover up to 8 MiB; it is larger.",
    );
  }
  return undefined;
}

/** A container that is not ready yet (pending), or one that will never be (failed); undefined when FINISHED. */
function notReady(
  status: ContainerStatus,
  kind: 'image' | 'video',
  what: string,
): 'pending' | FailedOutcome | undefined {
  if (status.code === 'FINISHED') return undefined;
  if (status.code === 'IN_PROGRESS') return 'pending';
  if (status.code === 'EXPIRED') {
    return failed(
      'transient',
      'CONTAINER_EXPIRED',
      `Instagram let ${what} expire before it was published; it will be made again.`,
      {
        platformRawCode: 'EXPIRED',
      },
    );
  }
  if (status.code === 'ERROR') {
    return failed(
      'permanent',
      'MEDIA_PROCESSING_FAILED',
      `Instagram could not process the ${kind} of ${what}.`,
      {
        platformRawCode: status.subcode ? `ERROR/${status.subcode}` : 'ERROR',
      },
    );
  }
  return undefined;
}

/**
 * Publishing one post as containers (instagram.md §2), as steps that survive the end of an
 * invocation (each recorded in progress):
 * 1. room in the daily publishing limit (`content_publishing_limit`), before anything is made;
 * 2. the containers: Instagram fetches each media item from a presigned URL of the media bucket
 *    (15 minutes); a carousel's items first, each FINISHED before the parent is made;
 * 3. the container's status: IN_PROGRESS answers `pending` (the worker checks again later, never
 *    sleeping); ERROR fails the post; EXPIRED fails it for a retry that makes a new container;
 * 4. `media_publish`, after the limit is read again. No answer to it is `unknown`: the look-up
 *    reads the container's status (PUBLISHED or not), so the post is never published twice.
 */
export function makeInstagramPublish(deps: InstagramPublishDeps) {
  return async function publish(request: PublishRequest): Promise<PublishOutcome> {
    const earlier = readProgress(request.progress);
    const progress: InstagramProgress = { ...earlier };
    delete progress.publishSentAt;
    const withProgress = (outcome: FailedOutcome): FailedOutcome => ({
      ...outcome,
      progress: toPublishProgress(progress),
    });

    if (!request.credentials) {
      return tokenMissing('Instagram');
    }
    const options = readInstagramOptions(request.post);
    if ('invalid' in options) {
      return optionsUnreadable('Instagram');
    }
    const problem = shapeProblem(request.post.postType, request.media);
    if (problem) return failed('permanent', 'PLATFORM_REJECTED', problem);
    const unfit = fileProblem(request.media);
    if (unfit) return unfit;
    const postType = request.post.postType as InstagramPostType;
    const cover = postType === 'reel' ? request.optionMedia?.coverImage : undefined;
    const coverProblem = cover && coverFileProblem(cover);
    if (coverProblem) return coverProblem;

    const context: GraphContext = {
      api: deps.api,
      accessToken: request.credentials.accessToken,
      userId: request.account.networkUserId ?? 'me',
      signal: request.signal,
    };
    const refs = request.media.map(refOf);
    // The cover is part of the container: a changed cover is a new container, like changed media.
    const containerOf = [...refs, ...(cover ? [`cover:${refOf(cover, 0)}`] : [])].join(' ');
    if (progress.containerOf !== undefined && progress.containerOf !== containerOf) {
      // The media changed since the last attempt: nothing made from the old list can be used.
      delete progress.container;
      delete progress.containerOf;
      delete progress.containerAt;
    }
    const caption = postType === 'story' ? '' : captionOf(request.post);
    const tags = userTagsOf(request.post);
    const videoOrImage = (media: DeliveryMedia | undefined) => (media?.kind === 'video' ? 'video' : 'image');
    const pending = (kind: 'image' | 'video'): PublishOutcome => ({
      kind: 'pending',
      progress: toPublishProgress(progress),
      checkAfterSeconds: INSTAGRAM_CHECK_AFTER_SECONDS[kind],
      stage: 'container_processing',
    });

    const urlOf = async (media: DeliveryMedia): Promise<string> => {
      const key = media.stored?.objectKey;
      if (!key || !request.mediaUrls) {
        throw new InstagramStepFailed(
          failed(
            'transient',
            'MEDIA_UNAVAILABLE',
            'The media could not be offered to Instagram (no media URL).',
          ),
        );
      }
      return request.mediaUrls.presignGet(key, INSTAGRAM_MEDIA_URL_SECONDS, request.signal);
    };

    let publishSentAt: string | undefined;
    try {
      // An earlier media_publish that got no answer may have gone through: its container says.
      if (earlier.publishSentAt && progress.container) {
        const status = await containerStatus(context, progress.container);
        if (status.code === 'PUBLISHED') {
          const found = await findPublishedMedia(context, {
            postType,
            caption,
            since: Date.parse(earlier.publishSentAt),
          });
          if (found) return { kind: 'published', ...found };
          return {
            kind: 'unknown',
            code: 'PLATFORM_NO_POST_ID',
            message: 'Instagram published the container, and the post could not be found in the account yet.',
            progress: toPublishProgress({ ...progress, publishSentAt: earlier.publishSentAt }),
          };
        }
      }

      if (!progress.container) {
        await assertRoomToPublish(context, deps.now, request.recordQuota);
        if (postType === 'carousel') {
          const children: ChildContainer[] = [];
          for (const [index, child] of (earlier.children ?? []).entries()) {
            if (child.ref !== refs[index]) break;
            children.push(child);
          }
          progress.children = children;
          for (const [index, media] of request.media.entries()) {
            if (children[index]) continue;
            const id = await createContainer(
              context,
              carouselItemParams({ media, url: await urlOf(media), tags: tags[index] }),
            );
            children[index] = { ref: refs[index] ?? `#${index}`, id };
          }
          for (const [index, child] of children.entries()) {
            const media = request.media[index];
            const outcome = notReady(
              await containerStatus(context, child.id),
              videoOrImage(media),
              `carousel item ${index + 1}`,
            );
            if (outcome === 'pending') return pending(videoOrImage(media));
            if (outcome) {
              // That item (and those after it) are made again on a retry; those before it stand.
              children.length = index;
              return withProgress(outcome);
            }
          }
          progress.container = await createContainer(
            context,
            carouselParams({ children: children.map((child) => child.id), caption, options }),
          );
        } else {
          const [media] = request.media;
          if (!media) return failed('permanent', 'PLATFORM_REJECTED', 'An Instagram post needs media.');
          const coverUrl = cover ? await urlOf(cover) : undefined;
          progress.container = await createContainer(
            context,
            singleParams({
              postType,
              media,
              url: await urlOf(media),
              caption,
              tags: tags[0],
              options,
              ...(coverUrl && { coverUrl }),
            }),
          );
        }
        progress.containerOf = containerOf;
        progress.containerAt = new Date(deps.now()).toISOString();
      }

      const kind = postType === 'carousel' ? 'image' : videoOrImage(request.media[0]);
      const status = await containerStatus(context, progress.container);
      if (status.code === 'PUBLISHED') {
        // Published by an earlier attempt whose answer was lost before it was recorded as sent.
        const found = await findPublishedMedia(context, {
          postType,
          caption,
          since: Date.parse(progress.containerAt ?? request.post.createdAt),
        });
        if (found) return { kind: 'published', ...found };
        return {
          kind: 'unknown',
          code: 'PLATFORM_NO_POST_ID',
          message: 'Instagram published the container, and the post could not be found in the account yet.',
          progress: toPublishProgress(progress),
        };
      }
      const outcome = notReady(status, kind, 'the post');
      if (outcome === 'pending') return pending(kind);
      if (outcome) {
        delete progress.container;
        delete progress.containerOf;
        delete progress.containerAt;
        if (postType === 'carousel' && status.code === 'EXPIRED') delete progress.children;
        return withProgress(outcome);
      }

      await assertRoomToPublish(context, deps.now, request.recordQuota);
      publishSentAt = new Date(deps.now()).toISOString();
      const response = await publishContainer(context, progress.container);
      if (!response.ok) return withProgress(failureOf(await readGraphError(response), 'publish'));
      const answer = PublishedAnswer.safeParse(await readJson(response));
      if (!answer.success) {
        return {
          kind: 'unknown',
          code: 'PLATFORM_NO_POST_ID',
          message: 'Instagram accepted the post without naming it.',
          progress: toPublishProgress({ ...progress, publishSentAt }),
        };
      }
      const mediaId = answer.data.id;
      const permalink = await permalinkOf(context, mediaId);
      return {
        kind: 'published',
        platformPostId: mediaId,
        platformPostUrl: permalink ?? instagramProfileUrl(request.account.handle),
      };
    } catch (error) {
      if (error instanceof InstagramStepFailed) return withProgress(error.outcome);
      if (error instanceof NoAnswerError && publishSentAt) {
        return {
          kind: 'unknown',
          code: error.code === 'ABORTED' ? 'PLATFORM_TIMEOUT' : 'PLATFORM_NO_ANSWER',
          message: 'Instagram did not answer the publish request; it may have published the post.',
          progress: toPublishProgress({ ...progress, publishSentAt }),
        };
      }
      if (error instanceof RequestNotSentError) {
        return withProgress(failed('transient', 'PLATFORM_UNREACHABLE', 'Instagram could not be reached.'));
      }
      if (error instanceof NoAnswerError) {
        // A container made without an answer is lost to us; a new one is made, and the lost one
        // expires unpublished after 24 hours.
        return withProgress(
          failed('transient', 'PLATFORM_NO_ANSWER', 'Instagram did not answer while the post was prepared.'),
        );
      }
      if (!publishSentAt) {
        return withProgress(
          failed('transient', 'MEDIA_URL_FAILED', 'A media URL could not be made for Instagram.'),
        );
      }
      throw error;
    }
  };
}
