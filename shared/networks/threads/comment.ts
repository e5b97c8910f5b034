import type {
  CommentLookupOutcome,
  CommentLookupRequest,
  CommentOutcome,
  CommentRequest,
  DeliveryMedia,
} from '../../ports/connector.js';
import { failed, tokenMissing } from '../publish/failed-outcome.js';
import { ThreadsStepFailed } from './errors.js';
import { searchPosts } from './find-post.js';
import { containerStatus, type GraphContext, permalinkOf } from './graph.js';
import { itemKey, refOf, type ThreadsItem } from './items.js';
import { THREADS_MEDIA_URL_SECONDS, threadsProfileUrl } from './limits.js';
import { readProgress, type ThreadsProgress, toPublishProgress } from './progress.js';
import { publishItem } from './publish-item.js';
import { thrownOutcome, unpostedOutcome } from './step-outcome.js';

export interface ThreadsCommentDeps {
  api: GraphContext['api'];
  now: () => number;
}

/**
 * The first comment on a Threads post (first-comment-and-link-previews.md §1.6): a reply from the
 * same account, made as a post is (publish-item.ts): a container with `reply_to_id` (text, one
 * image or video, or 2 to 20 as a carousel), then `threads_publish`. The container id is kept in
 * the progress before publishing, so a lost answer is settled by the container's status and the
 * account's replies, never by a second reply. Replies count against their own allowance (1,000 a
 * day), checked before the container is made. No scope beyond those a connect asks already.
 */
export function makeThreadsComments(deps: ThreadsCommentDeps) {
  const contextOf = (request: CommentRequest | CommentLookupRequest, accessToken: string): GraphContext => ({
    api: deps.api,
    accessToken,
    userId: request.account.networkUserId ?? 'me',
    signal: request.signal,
  });

  async function publishComment(request: CommentRequest): Promise<CommentOutcome> {
    if (!request.credentials) return tokenMissing('Threads');
    const context = contextOf(request, request.credentials.accessToken);
    const replyToId = request.post.platformPostId;
    const item: ThreadsItem = {
      index: 0,
      text: request.comment.text,
      media: request.comment.media.map((media, position) => ({ ref: refOf(media, position), media })),
    };
    const progress: ThreadsProgress = readProgress(request.progress);
    const key = itemKey(item);
    if (progress.item?.of !== key) progress.item = { of: key };
    const state = progress.item;
    const withProgress = <O extends CommentOutcome>(outcome: O): O => ({
      ...outcome,
      progress: toPublishProgress(progress),
    });
    const urlOf = async (media: DeliveryMedia): Promise<string> => {
      const objectKey = media.stored?.objectKey;
      if (!objectKey || !request.mediaUrls) {
        throw new ThreadsStepFailed(
          failed(
            'transient',
            'MEDIA_UNAVAILABLE',
            'The media could not be offered to Threads (no media URL).',
          ),
        );
      }
      return request.mediaUrls.presignGet(objectKey, THREADS_MEDIA_URL_SECONDS, request.signal);
    };
    try {
      const step = await publishItem({
        context,
        item,
        options: {},
        place: { first: false, replyToId },
        state,
        now: deps.now,
        urlOf,
        search: (since) =>
          searchPosts(context, { text: item.text, since, handle: request.account.handle, replyToId }),
      });
      switch (step.kind) {
        case 'posted': {
          const permalink = await permalinkOf(context, step.id);
          return {
            kind: 'published',
            platformPostId: step.id,
            platformPostUrl: permalink ?? threadsProfileUrl(request.account.handle),
          };
        }
        default:
          return withProgress(unpostedOutcome(step));
      }
    } catch (error) {
      return withProgress(
        thrownOutcome(error, Boolean(state.publishSentAt), {
          publish: 'Threads did not answer the reply’s publish request; it may have published the comment.',
          prepare: 'Threads did not answer while the comment was prepared.',
        }),
      );
    }
  }

  /**
   * The container the attempt recorded says it: PUBLISHED → the reply is found among the account's
   * replies (by text, time and the post it replies to); any other status → not published (the
   * retry publishes that same container). No container recorded: the replies since the first
   * attempt began are searched.
   */
  async function findComment(request: CommentLookupRequest): Promise<CommentLookupOutcome> {
    if (!request.credentials) {
      return {
        kind: 'unknown',
        message: 'The Threads account has no access token to look the comment up with.',
      };
    }
    const context = contextOf(request, request.credentials.accessToken);
    const container = readProgress(request.progress).item?.container;
    try {
      if (container) {
        const status = await containerStatus(context, container);
        if (status.code !== 'PUBLISHED') return { kind: 'not_found' };
      }
      const found = await searchPosts(context, {
        text: request.comment.text,
        since: Date.parse(request.since),
        handle: request.account.handle,
        replyToId: request.post.platformPostId,
      });
      if (found.kind === 'found') return { kind: 'found', ...found.post };
      if (container) {
        return {
          kind: 'unknown',
          message: 'Threads published the reply, and it is not listed on the account yet.',
        };
      }
      return found.kind === 'not_found'
        ? { kind: 'not_found' }
        : { kind: 'unknown', message: 'Too many recent replies on the account to tell.' };
    } catch (error) {
      if (error instanceof ThreadsStepFailed) return { kind: 'unknown', message: error.outcome.message };
      return { kind: 'unknown', message: 'Threads did not answer the comment look-up.' };
    }
  }

  return { publishComment, findComment };
}
