import * as z from 'zod';
import { contentItems } from '../../domain/posts.js';
import type { LookupOutcome, LookupRequest } from '../../ports/connector.js';
import { type LinkedInApi, linkedInPostUrl, readJson } from './api.js';
import { memberUrn } from './author.js';
import { LinkedInStepFailed } from './errors.js';
import { readLinkedInOptions } from './options.js';
import { commentaryOf } from './post-body.js';
import { readProgress } from './progress.js';

/** Posts per page of the author finder, and how many pages back to look before giving up. */
const PAGE_SIZE = 50;
const MAX_PAGES = 4;
/** Our clock and LinkedIn's may disagree: a post created this long before our record still counts. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

const PostPage = z.object({
  elements: z.array(
    z.object({
      id: z.string(),
      commentary: z.string().optional(),
      createdAt: z.number().optional(),
      publishedAt: z.number().optional(),
      content: z
        .object({
          media: z.object({ id: z.string() }).optional(),
          multiImage: z.object({ images: z.array(z.object({ id: z.string() })) }).optional(),
          poll: z.object({ question: z.string() }).optional(),
          article: z.object({ source: z.string() }).optional(),
        })
        .optional(),
    }),
  ),
});
type ListedPost = z.infer<typeof PostPage>['elements'][number];

const unknown = (message: string): LookupOutcome => ({ kind: 'unknown', message });

/**
 * Whether LinkedIn already has the post, without posting: LinkedIn takes no client reference, so
 * the author's recent posts (`GET /rest/posts?q=author`, newest first) are searched for one made
 * since the attempt (or, lacking that, since the post was created) with the same commentary and,
 * where the uploads are known, the same media. `not_found` only when the listing reaches back past
 * that time; `unknown` when it cannot say: the finder refused (listing a member's posts needs
 * `r_member_social`, which LinkedIn grants few apps; a Page's needs `r_organization_social`), it
 * failed, or a post without text has no uploads to tell it by. A poll or an article share is
 * told by its question or its URL too: a poll's post may have no text at all.
 */
export function makeLinkedInLookUp(deps: { api: LinkedInApi }) {
  return async function findPublished(request: LookupRequest): Promise<LookupOutcome> {
    if (!request.credentials)
      return unknown('The LinkedIn account has no access token to look the post up with.');
    const options = readLinkedInOptions(request.post);
    if ('invalid' in options) return unknown('The post has LinkedIn options this connector cannot read.');
    const progress = readProgress(request.progress);
    const context = { api: deps.api, accessToken: request.credentials.accessToken, signal: request.signal };

    const rawText = contentItems(request.post)[0]?.text ?? '';
    const commentary = commentaryOf(request.post);
    const refs = countMediaRefs(request.post);
    const urns =
      refs > 0 && progress.media?.length === refs && progress.media.every((item) => item.state === 'ready')
        ? progress.media.map((item) => item.urn)
        : undefined;
    const question = options.poll?.question;
    const source = request.post.link?.url;
    if (commentary === '' && !urns && question === undefined && source === undefined)
      return unknown('A LinkedIn post without text cannot be told from others.');
    const since = Date.parse(progress.createSentAt ?? request.post.createdAt) - CLOCK_SKEW_MS;

    const matches = (post: ListedPost) =>
      ((post.commentary ?? '') === commentary || post.commentary === rawText) &&
      (!urns || sameList(mediaOf(post), urns)) &&
      (refs > 0 || mediaOf(post).length === 0) &&
      post.content?.poll?.question === question &&
      post.content?.article?.source === source;

    try {
      const author = options.organization ?? (await memberUrn(context, request.account));
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const response = await deps.api({
          method: 'GET',
          path: '/rest/posts',
          query: {
            q: 'author',
            author,
            sortBy: 'CREATED',
            start: String(page * PAGE_SIZE),
            count: String(PAGE_SIZE),
          },
          restliMethod: 'FINDER',
          ...context,
        });
        if (!response.ok) {
          await response.arrayBuffer().catch(() => undefined);
          return unknown(`LinkedIn refused to list the author's posts (HTTP ${response.status}).`);
        }
        const listed = PostPage.safeParse(await readJson(response));
        if (!listed.success) return unknown("LinkedIn answered the author's post list unreadably.");
        for (const post of listed.data.elements) {
          const created = post.createdAt ?? post.publishedAt;
          if (created !== undefined && created < since) return { kind: 'not_found' };
          if (matches(post)) {
            return { kind: 'found', platformPostId: post.id, platformPostUrl: linkedInPostUrl(post.id) };
          }
        }
        if (listed.data.elements.length < PAGE_SIZE) return { kind: 'not_found' };
      }
      return unknown('Too many posts since the attempt to look through.');
    } catch (error) {
      if (error instanceof LinkedInStepFailed) return unknown(error.outcome.message);
      return unknown('LinkedIn did not answer the look-up.');
    }
  };
}

/** As many as the worker delivers: the top-level media, then each item's (array content). */
function countMediaRefs(post: LookupRequest['post']): number {
  const inItems =
    typeof post.content === 'string'
      ? 0
      : post.content.reduce((sum, item) => sum + (item.media?.length ?? 0), 0);
  return post.media.length + inItems;
}

function mediaOf(post: ListedPost): string[] {
  if (post.content?.multiImage) return post.content.multiImage.images.map((image) => image.id);
  return post.content?.media ? [post.content.media.id] : [];
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
