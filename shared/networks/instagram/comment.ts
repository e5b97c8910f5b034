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
import { failureOf, InstagramStepFailed, readGraphError } from './errors.js';
import type { GraphContext } from './graph.js';
import { INSTAGRAM_CLOCK_SKEW_MS, instagramProfileUrl } from './limits.js';

/** Comments read per page of the look-up, and pages read at most before it gives up (`unknown`). */
const PAGE_SIZE = 50;
const MAX_PAGES = 4;

const CommentsPage = z.object({
  data: z.array(
    z.object({
      id: z.union([z.string(), z.number()]).transform(String),
      text: z.string().optional(),
      username: z.string().optional(),
      timestamp: z.string().optional(),
    }),
  ),
  paging: z
    .object({ cursors: z.object({ after: z.string().optional() }).optional(), next: z.string().optional() })
    .optional(),
});

/** The account's username as Instagram lists it on comments: the handle without its @. */
const usernameOf = (handle: string): string => handle.replace(/^@/, '').toLowerCase();

/**
 * The first comment on an Instagram post (first-comment-and-link-previews.md §1.3): one
 * `POST /{ig-media-id}/comments?message=` from the same account, text only (comments carry no
 * media), needing `instagram_business_manage_comments`. Instagram names no comment address: the
 * comment's URL is the post's. After an unknown outcome, `GET /{ig-media-id}/comments` lists the
 * post's comments: ours is the one by the account's username with this text, made since the first
 * attempt began.
 */
export function makeInstagramComments(deps: { api: GraphContext['api']; now: () => number }) {
  const contextOf = (request: CommentRequest | CommentLookupRequest, accessToken: string): GraphContext => ({
    api: deps.api,
    accessToken,
    userId: request.account.networkUserId ?? 'me',
    signal: request.signal,
  });
  const postUrlOf = (request: CommentRequest | CommentLookupRequest): string =>
    request.post.platformPostUrl ?? instagramProfileUrl(request.account.handle);

  async function publishComment(request: CommentRequest): Promise<CommentOutcome> {
    if (!request.credentials) return tokenMissing('Instagram');
    if (request.comment.media.length > 0) {
      return failed('permanent', 'PLATFORM_REJECTED', 'Instagram comments are text only.');
    }
    const context = contextOf(request, request.credentials.accessToken);
    return sendGraphComment({
      network: 'Instagram',
      sentAt: new Date(deps.now()).toISOString(),
      send: () =>
        context.api({
          method: 'POST',
          path: `/${request.post.platformPostId}/comments`,
          params: { message: request.comment.text },
          accessToken: context.accessToken,
          signal: context.signal,
        }),
      refusal: async (response) => failureOf(await readGraphError(response), 'comment'),
      urlOf: () => postUrlOf(request),
    });
  }

  async function findComment(request: CommentLookupRequest): Promise<CommentLookupOutcome> {
    if (!request.credentials) {
      return {
        kind: 'unknown',
        message: 'The Instagram account has no access token to look the comment up with.',
      };
    }
    const context = contextOf(request, request.credentials.accessToken);
    const since = Date.parse(request.since) - INSTAGRAM_CLOCK_SKEW_MS;
    const username = usernameOf(request.account.handle);
    try {
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const response = await context.api({
          method: 'GET',
          path: `/${request.post.platformPostId}/comments`,
          params: {
            fields: 'id,text,username,timestamp',
            limit: String(PAGE_SIZE),
            ...(after && { after }),
          },
          accessToken: context.accessToken,
          signal: context.signal,
        });
        if (!response.ok)
          throw new InstagramStepFailed(failureOf(await readGraphError(response), 'comments'));
        const parsed = CommentsPage.safeParse(await readJson(response));
        if (!parsed.success) return { kind: 'unknown', message: 'Instagram listed the comments unreadably.' };
        const match = parsed.data.data.find(
          (comment) =>
            comment.text === request.comment.text &&
            (comment.username ?? '').toLowerCase() === username &&
            !(Date.parse(comment.timestamp ?? '') < since),
        );
        if (match) return { kind: 'found', platformPostId: match.id, platformPostUrl: postUrlOf(request) };
        after = parsed.data.paging?.next ? parsed.data.paging.cursors?.after : undefined;
        if (!after) return { kind: 'not_found' };
      }
      return {
        kind: 'unknown',
        message: 'The post has too many comments to tell whether ours is among them.',
      };
    } catch (error) {
      if (error instanceof InstagramStepFailed) return { kind: 'unknown', message: error.outcome.message };
      return { kind: 'unknown', message: 'Instagram did not answer the comment look-up.' };
    }
  }

  return { publishComment, findComment };
}
