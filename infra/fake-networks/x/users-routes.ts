import { problems, type Reply } from './http.js';
import { userPublicMetrics } from './metrics-growth.js';
import type { ApiContext } from './route.js';
import type { FakeTweet } from './store.js';

/** GET /2/users/me: the token's user, with profile_image_url and public_metrics when asked for. */
export function me(context: ApiContext): Reply {
  const fields = (context.url.searchParams.get('user.fields') ?? '').split(',');
  const { id, name, username, profileImageUrl } = context.user;
  return {
    status: 200,
    json: {
      data: {
        id,
        name,
        username,
        ...(fields.includes('profile_image_url') &&
          profileImageUrl && { profile_image_url: profileImageUrl }),
        ...(fields.includes('public_metrics') && {
          public_metrics: userPublicMetrics(context.user, context.store),
        }),
      },
    },
  };
}

/**
 * The tweet fields docs.x.com's reference lists for `tweet.fields`. X's OpenAPI document 2.167
 * renames the parameter `post.fields` and leaves `referenced_tweets` out of it, while X's reference
 * and the live API use `tweet.fields`: the fake checks this one parameter against the reference.
 */
export const TWEET_FIELDS = new Set([
  'article',
  'attachments',
  'author_id',
  'card_uri',
  'community_id',
  'context_annotations',
  'conversation_id',
  'created_at',
  'display_text_range',
  'edit_controls',
  'edit_history_tweet_ids',
  'entities',
  'geo',
  'id',
  'in_reply_to_user_id',
  'lang',
  'media_metadata',
  'non_public_metrics',
  'note_tweet',
  'organic_metrics',
  'possibly_sensitive',
  'promoted_metrics',
  'public_metrics',
  'referenced_tweets',
  'reply_settings',
  'scopes',
  'source',
  'text',
  'withheld',
]);

/** Pagination tokens are the offset into the filtered timeline, in base32hex as X's look. */
const encodeToken = (offset: number) => offset.toString(32).toUpperCase();
const decodeToken = (token: string) => Number.parseInt(token, 32);

/** GET /2/users/{id}/tweets: the user's tweets, newest first, in pages (X's user Post timeline). */
export function userTweets(context: ApiContext): Reply {
  const query = context.url.searchParams;
  const userId = context.params.id ?? '';
  if (!context.store.users.has(userId)) return problems.notFound(`Could not find user with id: [${userId}].`);
  const fields = new Set((query.get('tweet.fields') ?? '').split(',').filter(Boolean));
  const unknownField = [...fields].find((field) => !TWEET_FIELDS.has(field));
  if (unknownField) {
    return problems.invalid(
      `The \`tweet.fields\` query parameter value [${unknownField}] is not one of the allowed values.`,
      {
        'tweet.fields': [unknownField],
      },
    );
  }
  const exclude = new Set((query.get('exclude') ?? '').split(',').filter(Boolean));
  const start = query.get('start_time')
    ? Date.parse(query.get('start_time') ?? '')
    : Number.NEGATIVE_INFINITY;
  const end = query.get('end_time') ? Date.parse(query.get('end_time') ?? '') : Number.POSITIVE_INFINITY;
  const all = context.store
    .tweetsBy(userId)
    .filter((tweet) => tweet.createdAt >= start && tweet.createdAt < end)
    .filter((tweet) => !(exclude.has('replies') && tweet.replyTo))
    .reverse();
  const size = Number(query.get('max_results') ?? '10');
  const offset = query.get('pagination_token') ? decodeToken(query.get('pagination_token') ?? '') : 0;
  if (!Number.isInteger(offset) || offset < 0) return problems.invalid('The pagination_token is not valid.');
  const page = all.slice(offset, offset + size);
  const next = offset + size < all.length ? encodeToken(offset + size) : undefined;
  const first = page[0];
  const last = page.at(-1);
  return {
    status: 200,
    json: {
      ...(page.length > 0 && { data: page.map((tweet) => tweetView(tweet, fields)) }),
      meta: {
        result_count: page.length,
        ...(first && last && { newest_id: first.id, oldest_id: last.id }),
        ...(next && { next_token: next }),
      },
    },
  };
}

function tweetView(tweet: FakeTweet, fields: Set<string>) {
  return {
    id: tweet.id,
    text: tweet.renderedText,
    edit_history_tweet_ids: [tweet.id],
    ...(fields.has('created_at') && { created_at: new Date(tweet.createdAt).toISOString() }),
    ...(fields.has('author_id') && { author_id: tweet.authorId }),
    ...(fields.has('attachments') && attachmentsOf(tweet)),
    ...(fields.has('referenced_tweets') && referencesOf(tweet)),
    ...(fields.has('community_id') && tweet.communityId && { community_id: tweet.communityId }),
    ...(fields.has('reply_settings') && { reply_settings: tweet.replySettings ?? 'everyone' }),
  };
}

/** `attachments`: the media's keys and the poll's id, when there are any. */
function attachmentsOf(tweet: FakeTweet) {
  const attachments = {
    ...(tweet.mediaIds.length > 0 && { media_keys: tweet.mediaIds.map((id) => `3_${id}`) }),
    ...(tweet.poll && { poll_ids: [tweet.poll.id] }),
  };
  return Object.keys(attachments).length > 0 ? { attachments } : {};
}

/** `referenced_tweets`: the post it replies to and the post it quotes (X's read-back name, as its reference gives it). */
function referencesOf(tweet: FakeTweet) {
  const references = [
    ...(tweet.replyTo ? [{ type: 'replied_to', id: tweet.replyTo }] : []),
    ...(tweet.quoteOf ? [{ type: 'quoted', id: tweet.quoteOf }] : []),
  ];
  return references.length > 0 ? { referenced_tweets: references } : {};
}
