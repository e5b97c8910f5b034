import { z } from 'zod';
import { isReply, jsonBody } from './api-auth.js';
import { linkedInError, replies } from './http.js';
import { publishedText } from './little-text.js';
import { type ApiContext, type Handler, hasScope, mayActAs } from './route.js';
import type { FakePost } from './store.js';

const AUTHOR = /^urn:li:(person|organization):[A-Za-z0-9_-]+$/;

const MediaContent = z.strictObject({
  id: z.string(),
  altText: z.string().max(4086).optional(),
  title: z.string().optional(),
});
/** Counted as LinkedIn counts characters (code points). */
const chars = (max: number, min = 0) =>
  z
    .string()
    .min(min)
    .refine((text) => [...text].length <= max, `At most ${max} characters.`);

/**
 * `content.poll` (Poll API): 2–4 options of at most 30 characters, a question of at most 140, one
 * of the four durations; one vote per member and voters visible to the author are the only
 * settings LinkedIn supports.
 */
const PollContent = z.strictObject({
  question: chars(140, 1),
  options: z
    .array(z.strictObject({ text: chars(30, 1) }))
    .min(2)
    .max(4),
  settings: z.strictObject({
    duration: z.enum(['ONE_DAY', 'THREE_DAYS', 'SEVEN_DAYS', 'FOURTEEN_DAYS']),
    voteSelectionType: z.literal('SINGLE_VOTE'),
    isVoterVisibleToAuthor: z.literal(true),
  }),
});

/** `content.article`: `source` and `title` required (LinkedIn reads nothing from the page). */
const ArticleContent = z.strictObject({
  source: z.url({ protocol: /^https?$/ }),
  title: chars(400, 1),
  description: chars(4086).optional(),
  thumbnail: z.string().startsWith('urn:li:image:').optional(),
  thumbnailAltText: z.string().max(4086).optional(),
});

const PostBody = z.strictObject({
  author: z.string().regex(AUTHOR),
  commentary: z.string(),
  visibility: z.enum(['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER']),
  distribution: z.strictObject({
    feedDistribution: z.enum(['MAIN_FEED', 'NONE']),
    targetEntities: z.array(z.unknown()),
    thirdPartyDistributionChannels: z.array(z.unknown()),
  }),
  lifecycleState: z.enum(['PUBLISHED', 'DRAFT']),
  isReshareDisabledByAuthor: z.boolean().optional(),
  content: z
    .union([
      z.strictObject({ media: MediaContent }),
      z.strictObject({
        multiImage: z.strictObject({
          images: z.array(z.strictObject({ id: z.string(), altText: z.string().max(4086).optional() })),
        }),
      }),
      z.strictObject({ poll: PollContent }),
      z.strictObject({ article: ArticleContent }),
    ])
    .optional(),
});

function mediaIds(content: FakePost['content']): string[] {
  if (content?.multiImage) return content.multiImage.images.map((image) => image.id);
  if (content?.article?.thumbnail) return [content.article.thumbnail];
  return content?.media ? [content.media.id] : [];
}

/** What tells two posts of the same text apart: their media, poll question or article URL. */
function contentKey(content: FakePost['content']): string {
  return [...mediaIds(content), content?.poll?.question ?? '', content?.article?.source ?? ''].join(',');
}

/** Why the post's media cannot be used, or undefined. */
function mediaProblem(context: ApiContext, post: z.infer<typeof PostBody>) {
  const content = post.content;
  if (!content) return undefined;
  if ('multiImage' in content) {
    const images = content.multiImage.images;
    if (images.length < 2 || images.length > 20) {
      return replies.invalid(
        'A MultiImage post takes 2 to 20 images.',
        'INVALID_VALUE',
        '/content/multiImage/images',
      );
    }
  }
  for (const id of mediaIds(content)) {
    const upload = context.store.uploads.get(id);
    if (!upload) return replies.invalid(`Media ${id} does not exist.`, 'INVALID_URN_ID', '/content');
    if (('multiImage' in content || 'article' in content) && upload.kind !== 'image') {
      return replies.invalid('Only an image may be used here.', 'INVALID_URN_TYPE', '/content');
    }
    if (upload.owner !== post.author) {
      return replies.invalid(`Media ${id} is not owned by the author.`, 'INVALID_OWNER', '/content');
    }
    if (upload.status !== 'AVAILABLE') {
      return replies.invalid(
        `Media ${id} is not available (${upload.status}).`,
        'MEDIA_NOT_READY',
        '/content',
      );
    }
  }
  return undefined;
}

/**
 * POST /rest/posts (linkedin.md §2): the body as LinkedIn takes it (one kind of `content`: media,
 * multiImage, a poll or an article), the author the token may post as, media (an article's
 * thumbnail too) that are the author's and available, the commentary within its length once its
 * escapes are resolved, and no duplicate of a post of the same author (422 DUPLICATE_POST naming
 * the original). 201, empty body, the id in `x-restli-id`.
 */
export const createPost: Handler<ApiContext> = (context) => {
  const body = jsonBody(context);
  if (isReply(body)) return body;
  const parsed = PostBody.safeParse(body.json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return replies.invalid(
      `Invalid post: ${issue?.message ?? 'malformed'}`,
      'INVALID_VALUE',
      `/${issue?.path.join('/') ?? ''}`,
    );
  }
  const post = parsed.data;
  if (!mayActAs(context, post.author)) return replies.accessDenied('partnerApiPostsExternal.CREATE.20240501');
  const problem = mediaProblem(context, post);
  if (problem) return problem;
  const text = publishedText(post.commentary);
  if ([...text].length > context.settings.maxCommentary) {
    return replies.invalid(
      `The commentary is longer than ${context.settings.maxCommentary} characters.`,
      'MAX_LENGTH_EXCEEDED',
      '/commentary',
    );
  }
  const key = contentKey(post.content);
  const duplicate = context.store.posts.find(
    (existing) =>
      existing.author === post.author &&
      existing.commentary === post.commentary &&
      contentKey(existing.content) === key,
  );
  if (duplicate) {
    return linkedInError(422, `ERROR :: /commentary :: Content is a duplicate of ${duplicate.id}`, {
      inputErrors: [{ code: 'DUPLICATE_POST', field: '/commentary' }],
    });
  }
  const stored: FakePost = {
    id: `urn:li:share:${context.store.nextNumber()}`,
    author: post.author,
    commentary: post.commentary,
    publishedText: text,
    visibility: post.visibility,
    lifecycleState: post.lifecycleState,
    distribution: post.distribution,
    ...(post.content && { content: post.content }),
    ...(post.isReshareDisabledByAuthor !== undefined && {
      isReshareDisabledByAuthor: post.isReshareDisabledByAuthor,
    }),
    createdAt: context.settings.now(),
  };
  context.store.posts.push(stored);
  return { status: 201, headers: { 'x-restli-id': stored.id } };
};

/**
 * GET /rest/posts?q=author&author=…: the author's posts, newest first, paged. Listing a member's
 * posts needs `r_member_social` (restricted: LinkedIn grants it to few apps), a Page's
 * `r_organization_social` and a role on the Page.
 */
export const listPosts: Handler<ApiContext> = (context) => {
  const query = context.url.searchParams;
  if (query.get('q') !== 'author') return replies.badRequest('Unsupported finder.');
  const author = query.get('author') ?? '';
  const allowed = author.startsWith('urn:li:person:')
    ? author === context.memberUrn && hasScope(context.token, 'r_member_social')
    : hasScope(context.token, 'r_organization_social') &&
      context.store.rolesOn(context.member.sub, author).length > 0;
  if (!allowed) return replies.accessDenied('partnerApiPostsExternal.FINDER-author.20240501');
  const start = Number(query.get('start') ?? 0);
  const count = Math.min(Number(query.get('count') ?? 10), 100);
  const sortBy = query.get('sortBy') ?? 'LAST_MODIFIED';
  if (!['LAST_MODIFIED', 'CREATED'].includes(sortBy)) return replies.badRequest('Unsupported sortBy.');
  const all = context.store.posts
    .filter((post) => post.author === author)
    .sort((a, b) => b.createdAt - a.createdAt);
  return {
    status: 200,
    json: {
      paging: { start, count, total: all.length, links: [] },
      elements: all.slice(start, start + count).map((post) => ({
        id: post.id,
        author: post.author,
        commentary: post.commentary,
        visibility: post.visibility,
        lifecycleState: post.lifecycleState,
        distribution: post.distribution,
        ...(post.content && { content: post.content }),
        createdAt: post.createdAt,
        publishedAt: post.createdAt,
        lastModifiedAt: post.createdAt,
      })),
    },
  };
};
