import * as z from 'zod';
import type {
  CommentLookupOutcome,
  CommentLookupRequest,
  CommentOutcome,
  CommentRequest,
} from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { failed, optionsUnreadable, tokenMissing } from '../publish/failed-outcome.js';
import { type LinkedInApi, linkedInPostUrl, readJson } from './api.js';
import { memberUrn } from './author.js';
import { failureOf, LinkedInStepFailed, readLinkedInError } from './errors.js';
import { escapeLittleText } from './little-text.js';
import { readLinkedInOptions } from './options.js';

/** Comments per page of the look-up, and how many pages: a new post has few. */
const PAGE_SIZE = 100;
const MAX_PAGES = 5;
/** Our clock and LinkedIn's may disagree: a comment this long before the attempt still counts. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

const CreatedComment = z.object({ $URN: z.string().optional(), id: z.string().optional() });
const CommentPage = z.object({
  elements: z.array(
    z.object({
      $URN: z.string().optional(),
      id: z.string().optional(),
      actor: z.string().optional(),
      message: z.object({ text: z.string() }).optional(),
      created: z.object({ time: z.number() }).optional(),
    }),
  ),
  paging: z.object({ total: z.number().int().optional() }).optional(),
});

interface CommentsDeps {
  api: LinkedInApi;
}

/** Where a member sees a comment: the post's page, opened at the comment. */
export function linkedInCommentUrl(postUrn: string, commentUrn: string): string {
  return `${linkedInPostUrl(postUrn)}?commentUrn=${encodeURIComponent(commentUrn)}`;
}

/** `/rest/socialActions/{post URN}/comments`: the URN is one path segment, so it is encoded. */
function commentsPath(postUrn: string): string {
  return `/rest/socialActions/${encodeURIComponent(postUrn)}/comments`;
}

/**
 * A comment's URN, as LinkedIn names it: the created comment's `$URN`, else `x-restli-id` when it
 * is one, else `urn:li:comment:({post},{id})` from the comment id (the form LinkedIn's comment
 * URNs take; LinkedIn's page does not say which of these its create answer carries).
 */
function commentUrnOf(postUrn: string, header: string | null, body: unknown): string | undefined {
  const created = CreatedComment.safeParse(body);
  if (created.success && created.data.$URN) return created.data.$URN;
  if (header?.startsWith('urn:li:comment:')) return header;
  const id = (created.success && created.data.id) || header;
  return id ? `urn:li:comment:(${postUrn},${id})` : undefined;
}

/** Who comments: the post's author, the member or the Page it was published as. */
async function actorOf(
  request: CommentRequest | CommentLookupRequest,
  context: { api: LinkedInApi; accessToken: string; signal: AbortSignal },
  organization: string | undefined,
): Promise<string> {
  return organization ?? (await memberUrn(context, request.account));
}

/**
 * The first comment (Comments API, `POST /rest/socialActions/{post}/comments`), made by the
 * post's author (`actor`: the member, or the Page) on the published post, its text escaped as
 * little text like the commentary. Text only: LinkedIn's page does not show the shape of an image
 * in a comment. LinkedIn takes no client reference here either, so a request that got no answer
 * is `unknown`, and `findComment` settles it where it can (Page posts only).
 */
export function makeLinkedInPublishComment(deps: CommentsDeps) {
  return async function publishComment(request: CommentRequest): Promise<CommentOutcome> {
    if (!request.credentials) return tokenMissing('LinkedIn');
    const options = readLinkedInOptions(request.post);
    if ('invalid' in options) return optionsUnreadable('LinkedIn');
    if (request.comment.media.length > 0) {
      return failed(
        'permanent',
        'PLATFORM_REJECTED',
        'LinkedIn comments made by this service are text only.',
      );
    }
    const postUrn = request.post.platformPostId;
    const context = { api: deps.api, accessToken: request.credentials.accessToken, signal: request.signal };
    let sent = false;
    try {
      const actor = await actorOf(request, context, options.organization);
      sent = true;
      const response = await deps.api({
        method: 'POST',
        path: commentsPath(postUrn),
        json: { actor, object: postUrn, message: { text: escapeLittleText(request.comment.text) } },
        ...context,
      });
      if (!response.ok) return failureOf(await readLinkedInError(response), 'comment');
      const urn = commentUrnOf(postUrn, response.headers.get('x-restli-id'), await readJson(response));
      if (!urn) {
        return {
          kind: 'unknown',
          code: 'PLATFORM_NO_POST_ID',
          message: 'LinkedIn accepted the comment without naming it.',
        };
      }
      return { kind: 'published', platformPostId: urn, platformPostUrl: linkedInCommentUrl(postUrn, urn) };
    } catch (error) {
      if (error instanceof LinkedInStepFailed) return error.outcome;
      if (error instanceof RequestNotSentError) {
        return failed('transient', 'PLATFORM_UNREACHABLE', 'LinkedIn could not be reached.');
      }
      if (error instanceof NoAnswerError && sent) {
        return {
          kind: 'unknown',
          code: error.code === 'ABORTED' ? 'PLATFORM_TIMEOUT' : 'PLATFORM_NO_ANSWER',
          message: 'LinkedIn did not answer the comment request; it may have made the comment.',
        };
      }
      if (error instanceof NoAnswerError) {
        return failed('transient', 'PLATFORM_NO_ANSWER', 'LinkedIn did not answer the member look-up.');
      }
      throw error;
    }
  };
}

const unknown = (message: string): CommentLookupOutcome => ({ kind: 'unknown', message });

/**
 * Whether an attempt whose answer never came made the comment. A Page post's comments can be
 * listed (`GET /rest/socialActions/{post}/comments`, `r_organization_social_feed`): the Page's
 * comment with the same text made since the first attempt is it. A member post's cannot: reading
 * them needs `r_member_social_feed`, which LinkedIn grants only to select developers, so the answer
 * is `unknown` and the comment ends uncertain rather than risk a second one.
 */
export function makeLinkedInFindComment(deps: CommentsDeps) {
  return async function findComment(request: CommentLookupRequest): Promise<CommentLookupOutcome> {
    if (!request.credentials) return unknown('The LinkedIn account has no access token to look with.');
    const options = readLinkedInOptions(request.post);
    if ('invalid' in options) return unknown('The post has LinkedIn options this connector cannot read.');
    const organization = options.organization;
    if (!organization) {
      return unknown(
        "LinkedIn lets no app of this service read a member's comments (r_member_social_feed is restricted).",
      );
    }
    const postUrn = request.post.platformPostId;
    const text = escapeLittleText(request.comment.text);
    const since = Date.parse(request.since) - CLOCK_SKEW_MS;
    const context = { accessToken: request.credentials.accessToken, signal: request.signal };
    try {
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const response = await deps.api({
          method: 'GET',
          path: commentsPath(postUrn),
          query: { start: String(page * PAGE_SIZE), count: String(PAGE_SIZE) },
          ...context,
        });
        if (!response.ok) {
          await response.arrayBuffer().catch(() => undefined);
          return unknown(`LinkedIn refused to list the post's comments (HTTP ${response.status}).`);
        }
        const listed = CommentPage.safeParse(await readJson(response));
        if (!listed.success) return unknown("LinkedIn answered the post's comment list unreadably.");
        const ours = listed.data.elements.find(
          (comment) =>
            comment.actor === organization &&
            (comment.message?.text === text || comment.message?.text === request.comment.text) &&
            (comment.created === undefined || comment.created.time >= since),
        );
        const urn = ours && (ours.$URN ?? (ours.id ? `urn:li:comment:(${postUrn},${ours.id})` : undefined));
        if (urn) {
          return { kind: 'found', platformPostId: urn, platformPostUrl: linkedInCommentUrl(postUrn, urn) };
        }
        const seen = (page + 1) * PAGE_SIZE;
        const total = listed.data.paging?.total;
        if (listed.data.elements.length < PAGE_SIZE || (total !== undefined && seen >= total)) {
          return { kind: 'not_found' };
        }
      }
      return unknown('Too many comments on the post to look through.');
    } catch {
      return unknown('LinkedIn did not answer the comment look-up.');
    }
  };
}
