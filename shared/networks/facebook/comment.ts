import * as z from 'zod';
import type {
  CommentLookupOutcome,
  CommentLookupRequest,
  CommentOutcome,
  CommentRequest,
} from '../../ports/connector.js';
import { sendGraphComment } from '../graph-api/comment-send.js';
import { failed, tokenMissing } from '../publish/failed-outcome.js';
import { readJson } from './api.js';
import { FacebookStepFailed, failureOf, readGraphError } from './errors.js';
import type { PageContext } from './graph.js';
import { FACEBOOK_CLOCK_SKEW_MS, FACEBOOK_MEDIA_URL_SECONDS, facebookPostUrl } from './limits.js';
import { fileProblem } from './media-check.js';

/** Comments read per page of the look-up (newest first), and pages read at most before it gives up. */
const PAGE_SIZE = 50;
const MAX_PAGES = 4;

const Id = z.union([z.string(), z.number()]).transform(String);
const CommentsPage = z.object({
  data: z.array(
    z.object({
      id: Id,
      message: z.string().optional(),
      created_time: z.string().optional(),
      from: z.object({ id: Id }).optional(),
    }),
  ),
  paging: z
    .object({ cursors: z.object({ after: z.string().optional() }).optional(), next: z.string().optional() })
    .optional(),
});

/** A comment's address: its post's, with the comment named (how facebook.com links to one). */
function commentUrl(postUrl: string, commentId: string): string {
  const url = new URL(postUrl);
  url.searchParams.set('comment_id', commentId);
  return url.toString();
}

/**
 * The first comment on a Page's post (first-comment-and-link-previews.md §1.4): one
 * `POST /{post-id}/comments` by the Page with its Page token: `message`, and at most one image as
 * `attachment_url` (a presigned URL of the stored image Meta fetches, as for photo posts). A
 * video's or reel's post id is the video's id, whose comments edge is the same. After an unknown
 * outcome, `GET /{post-id}/comments` (newest first) lists the post's comments: ours is the Page's
 * with this message, made since the first attempt began.
 */
export function makeFacebookComments(deps: { api: PageContext['api']; now: () => number }) {
  const contextOf = (request: CommentRequest | CommentLookupRequest, accessToken: string): PageContext => ({
    api: deps.api,
    accessToken,
    pageId: request.account.networkUserId ?? 'me',
    signal: request.signal,
  });
  const postUrlOf = (request: CommentRequest | CommentLookupRequest): string =>
    request.post.platformPostUrl ?? facebookPostUrl(request.post.platformPostId);

  async function publishComment(request: CommentRequest): Promise<CommentOutcome> {
    if (!request.credentials) return tokenMissing('Facebook');
    const [image, ...more] = request.comment.media;
    if (more.length > 0 || (image && image.kind !== 'image')) {
      return failed('permanent', 'PLATFORM_REJECTED', 'A Facebook comment carries at most one image.');
    }
    const unfit = image && fileProblem([image]);
    if (unfit) return unfit;
    const context = contextOf(request, request.credentials.accessToken);
    let attachmentUrl: string | undefined;
    if (image) {
      const key = image.stored?.objectKey;
      if (!key || !request.mediaUrls) {
        return failed(
          'transient',
          'MEDIA_UNAVAILABLE',
          'The image could not be offered to Facebook (no media URL).',
        );
      }
      try {
        attachmentUrl = await request.mediaUrls.presignGet(key, FACEBOOK_MEDIA_URL_SECONDS, request.signal);
      } catch {
        return failed('transient', 'MEDIA_URL_FAILED', 'A media URL could not be made for Facebook.');
      }
    }
    return sendGraphComment({
      network: 'Facebook',
      sentAt: new Date(deps.now()).toISOString(),
      send: () =>
        context.api({
          method: 'POST',
          path: `/${request.post.platformPostId}/comments`,
          params: {
            ...(request.comment.text && { message: request.comment.text }),
            ...(attachmentUrl && { attachment_url: attachmentUrl }),
          },
          accessToken: context.accessToken,
          signal: context.signal,
        }),
      refusal: async (response) => failureOf(await readGraphError(response), 'comment'),
      urlOf: (commentId) => commentUrl(postUrlOf(request), commentId),
    });
  }

  async function findComment(request: CommentLookupRequest): Promise<CommentLookupOutcome> {
    if (!request.credentials) {
      return {
        kind: 'unknown',
        message: 'The Facebook Page has no access token to look the comment up with.',
      };
    }
    const context = contextOf(request, request.credentials.accessToken);
    const since = Date.parse(request.since) - FACEBOOK_CLOCK_SKEW_MS;
    try {
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const response = await context.api({
          method: 'GET',
          path: `/${request.post.platformPostId}/comments`,
          params: {
            fields: 'id,from,message,created_time',
            filter: 'stream',
            order: 'reverse_chronological',
            limit: String(PAGE_SIZE),
            ...(after && { after }),
          },
          accessToken: context.accessToken,
          signal: context.signal,
        });
        if (!response.ok) throw new FacebookStepFailed(failureOf(await readGraphError(response), 'comments'));
        const parsed = CommentsPage.safeParse(await readJson(response));
        if (!parsed.success) return { kind: 'unknown', message: 'Facebook listed the comments unreadably.' };
        const comments = parsed.data.data;
        const match = comments.find(
          (comment) =>
            comment.from?.id === context.pageId &&
            (comment.message ?? '') === request.comment.text &&
            !(Date.parse(comment.created_time ?? '') < since),
        );
        if (match) {
          return {
            kind: 'found',
            platformPostId: match.id,
            platformPostUrl: commentUrl(postUrlOf(request), match.id),
          };
        }
        // Newest first: a comment older than the attempt means ours would have been listed already.
        const reachedBack = comments.some((comment) => Date.parse(comment.created_time ?? '') < since);
        after = parsed.data.paging?.next ? parsed.data.paging.cursors?.after : undefined;
        if (reachedBack || !after) return { kind: 'not_found' };
      }
      return {
        kind: 'unknown',
        message: 'The post has too many recent comments to tell whether ours is among them.',
      };
    } catch (error) {
      if (error instanceof FacebookStepFailed) return { kind: 'unknown', message: error.outcome.message };
      return { kind: 'unknown', message: 'Facebook did not answer the comment look-up.' };
    }
  }

  return { publishComment, findComment };
}
