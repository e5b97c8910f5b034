import type { DeliveryMedia, PublishOutcome, PublishRequest } from '../../ports/connector.js';
import { failed, optionsUnreadable, tokenMissing } from '../publish/failed-outcome.js';
import { type FailedOutcome, ThreadsStepFailed } from './errors.js';
import { searchPosts } from './find-post.js';
import { type GraphContext, permalinkOf } from './graph.js';
import { dueAt, itemKey, type ThreadsItem, threadsItems } from './items.js';
import {
  THREADS_CAROUSEL_MAX_ITEMS,
  THREADS_CAROUSEL_MIN_ITEMS,
  THREADS_IMAGE_TYPES,
  THREADS_MAX_IMAGE_BYTES,
  THREADS_MAX_VIDEO_BYTES,
  THREADS_MEDIA_URL_SECONDS,
  THREADS_VIDEO_TYPES,
  threadsProfileUrl,
} from './limits.js';
import { readThreadsOptions } from './options.js';
import { readProgress, type ThreadsProgress, toPublishProgress } from './progress.js';
import { publishItem } from './publish-item.js';
import { thrownOutcome, unpostedOutcome } from './step-outcome.js';

export interface ThreadsPublishDeps {
  api: GraphContext['api'];
  now: () => number;
}

/** Why the post cannot be made on Threads as it stands, or undefined (the rules refused most at create). */
function shapeProblem(postType: string, items: readonly ThreadsItem[]): string | undefined {
  const media = items.flatMap((item) => item.media.map((entry) => entry.media.kind));
  if (media.includes('document')) return 'Threads publishes text, images and videos, not documents.';
  const [first] = items;
  const count = first?.media.length ?? 0;
  switch (postType) {
    case 'text':
      return count === 0 && first?.text ? undefined : 'A Threads text post has text and no media.';
    case 'image':
      return count === 1 && first?.media[0]?.media.kind === 'image'
        ? undefined
        : 'A Threads image post has one image.';
    case 'video':
      return count === 1 && first?.media[0]?.media.kind === 'video'
        ? undefined
        : 'A Threads video post has one video.';
    case 'carousel':
      return count >= THREADS_CAROUSEL_MIN_ITEMS && count <= THREADS_CAROUSEL_MAX_ITEMS
        ? undefined
        : `A Threads carousel has ${THREADS_CAROUSEL_MIN_ITEMS} to ${THREADS_CAROUSEL_MAX_ITEMS} items.`;
    case 'thread':
      return items.every(
        (item) => (item.text || item.media.length > 0) && item.media.length <= THREADS_CAROUSEL_MAX_ITEMS,
      )
        ? undefined
        : 'Each post of a Threads thread has text or media (at most 20).';
    default:
      return `Threads does not publish ${postType} posts.`;
  }
}

/**
 * A stored file Threads is sure to refuse when it fetches it (not JPEG/PNG or MP4/MOV, too large):
 * refused here, before a container is made for nothing. Threads checks again when it fetches.
 */
function fileProblem(media: readonly DeliveryMedia[]): FailedOutcome | undefined {
  for (const [index, item] of media.entries()) {
    const stored = item.stored;
    if (!stored || item.kind === 'document') continue;
    const image = item.kind === 'image';
    if (!(image ? THREADS_IMAGE_TYPES : THREADS_VIDEO_TYPES).includes(stored.mimeType.toLowerCase())) {
      return failed(
        'permanent',
        'MEDIA_TYPE_UNSUPPORTED',
        image
          ? `Threads publishes JPEG or PNG images; media item ${index + 1} is ${stored.mimeType}.`
          : `Threads publishes MP4 or MOV videos; media item ${index + 1} is ${stored.mimeType}.`,
      );
    }
    if (stored.sizeBytes > (image ? THREADS_MAX_IMAGE_BYTES : THREADS_MAX_VIDEO_BYTES)) {
      return failed(
        'permanent',
        'MEDIA_TOO_LARGE',
        image
          ? `Threads takes images up to 8 MB; media item ${index + 1} is larger.`
          : `Threads takes videos up to 1 GB; media item ${index + 1} is larger.`,
      );
    }
  }
  return undefined;
}

/**
 * Publishes a post on Threads (threads.md §4–5): each of its posts (one, or a thread's in order,
 * each a reply to the one before) through publish-item.ts, every step kept in the progress so a
 * later attempt resumes after it and never publishes a post twice. On any attempt but the first,
 * a post with no container recorded is first looked for on the account (an attempt may have
 * published it and lost the answer). The post's id and URL are those of its first post.
 */
export function makeThreadsPublish(deps: ThreadsPublishDeps) {
  return async function publish(request: PublishRequest): Promise<PublishOutcome> {
    if (!request.credentials) return tokenMissing('Threads');
    const read = readThreadsOptions(request.post);
    if ('invalid' in read) return optionsUnreadable('Threads');
    // The post's `link` is Threads' link_attachment (a text post's card); the rules refused both.
    const linkUrl = request.post.postType === 'text' ? request.post.link?.url : undefined;
    const options = !read.linkAttachment && linkUrl ? { ...read, linkAttachment: linkUrl } : read;
    const items = threadsItems(request.post, request.media);
    const problem = shapeProblem(request.post.postType, items);
    if (problem) return failed('permanent', 'PLATFORM_REJECTED', problem);
    const unfit = fileProblem(request.media);
    if (unfit) return unfit;

    const context: GraphContext = {
      api: deps.api,
      accessToken: request.credentials.accessToken,
      userId: request.account.networkUserId ?? 'me',
      signal: request.signal,
    };
    const progress: ThreadsProgress = readProgress(request.progress);
    const withProgress = <O extends PublishOutcome>(outcome: O): O => ({
      ...outcome,
      progress: toPublishProgress(progress),
    });
    const urlOf = async (media: DeliveryMedia): Promise<string> => {
      const key = media.stored?.objectKey;
      if (!key || !request.mediaUrls) {
        throw new ThreadsStepFailed(
          failed(
            'transient',
            'MEDIA_UNAVAILABLE',
            'The media could not be offered to Threads (no media URL).',
          ),
        );
      }
      return request.mediaUrls.presignGet(key, THREADS_MEDIA_URL_SECONDS, request.signal);
    };
    const since = dueAt(request.post);
    let lookFirst = request.attempt > 1 || request.progress !== undefined;

    try {
      for (const item of items.slice(progress.posted.length)) {
        const replyToId = item.index === 0 ? options.replyToId : progress.posted[item.index - 1];
        const place = { first: item.index === 0, ...(replyToId && { replyToId }) };
        const search = (from: number) =>
          searchPosts(context, {
            text: item.text,
            since: Number.isFinite(from) ? from : since,
            handle: request.account.handle,
            ...(replyToId && { replyToId }),
          });
        const key = itemKey(item);
        if (progress.item?.of !== key) progress.item = { of: key };
        const state = progress.item;
        if (lookFirst && !state.container) {
          const found = await search(since);
          if (found.kind === 'found') {
            progress.posted.push(found.post.platformPostId);
            delete progress.item;
            continue;
          }
          if (found.kind === 'unknown') {
            return withProgress({
              kind: 'unknown',
              code: 'PLATFORM_LOOKUP_INCONCLUSIVE',
              message:
                'Threads lists too many recent posts to tell whether an earlier attempt published this one.',
            });
          }
          lookFirst = false;
        }
        const step = await publishItem({
          context,
          item,
          options,
          place,
          state,
          now: deps.now,
          urlOf,
          search,
          ...(request.recordQuota && { recordQuota: request.recordQuota }),
        });
        switch (step.kind) {
          case 'posted':
            progress.posted.push(step.id);
            delete progress.item;
            continue;
          default:
            return withProgress(unpostedOutcome(step));
        }
      }
    } catch (error) {
      // A step refused before anything new was sent: an earlier send's time stays, for its check.
      return withProgress(
        thrownOutcome(error, Boolean(progress.item?.publishSentAt), {
          publish: 'Threads did not answer the publish request; it may have published the post.',
          prepare: 'Threads did not answer while the post was prepared.',
        }),
      );
    }

    const rootId = progress.posted[0];
    if (!rootId) return failed('permanent', 'PLATFORM_REJECTED', 'A Threads post needs text or media.');
    const permalink = await permalinkOf(context, rootId);
    return {
      kind: 'published',
      platformPostId: rootId,
      platformPostUrl: permalink ?? threadsProfileUrl(request.account.handle),
    };
  };
}
