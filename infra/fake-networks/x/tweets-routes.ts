import { problems, type Reply } from './http.js';
import { CATEGORY_RULES } from './media-limits.js';
import { isTextTooLong, renderText } from './render.js';
import type { ApiContext } from './route.js';
import { communityRefusal, quoteRefusal, replyRefusal } from './tweet-references.js';

interface CreateTweetBody {
  text?: string;
  media?: { media_ids: string[] };
  reply?: { in_reply_to_tweet_id: string };
  reply_settings?: string;
  quote_tweet_id?: string;
  community_id?: string;
  poll?: { options: string[]; duration_minutes: number };
}

/**
 * POST /2/tweets, after the body passed X's OpenAPI schema (index.ts): the checks X makes of what
 * the schema cannot say (twitter.md §1–2, §5; network-extras.md §1f), then the tweet is stored.
 */
export function createTweet(context: ApiContext): Reply {
  const body = context.json as CreateTweetBody;
  const text = body.text ?? '';
  const mediaIds = body.media?.media_ids ?? [];
  const { store, user } = context;
  if (!text && mediaIds.length === 0) return problems.invalid('Text or media is required.', { text: [] });
  if (isTextTooLong(text)) return problems.invalid('Your Tweet text is too long.', { text: [] });
  // Older descriptions of X's schema: a poll is "mutually exclusive from Media and Quote Tweet ID".
  if (body.poll && mediaIds.length > 0)
    return problems.invalid('A poll cannot be combined with media.', { poll: [], media: [] });
  if (body.poll && body.quote_tweet_id)
    return problems.invalid('A poll cannot be combined with a quoted Tweet.', {
      poll: [],
      quote_tweet_id: [],
    });

  const media = mediaIds.map((id) => store.media.get(id));
  for (const [index, item] of media.entries()) {
    // A DM's media or subtitles upload fine but cannot go on a Post (X's media best practices).
    const onPost = item && CATEGORY_RULES[item.category]?.onPost;
    if (!item || !onPost || item.ownerId !== user.id || item.processing !== 'succeeded') {
      return problems.invalid('Your media IDs are invalid.', { 'media.media_ids': [mediaIds[index] ?? ''] });
    }
  }
  const videos = media.filter((item) => item?.category !== 'tweet_image').length;
  if (videos > 0 && media.length > 1) {
    return problems.invalid('A Tweet takes up to 4 images, or 1 GIF or video on its own.', {
      'media.media_ids': [],
    });
  }

  const replyTo = body.reply?.in_reply_to_tweet_id;
  const refusal =
    (replyTo && replyRefusal(store, user, replyTo)) ||
    (body.quote_tweet_id && quoteRefusal(store, body.quote_tweet_id)) ||
    (body.community_id && communityRefusal(store, user, body.community_id));
  if (refusal) return refusal;
  if (text && store.tweetsBy(user.id).some((tweet) => tweet.text === text)) return problems.duplicate();

  const tweet = {
    id: store.snowflake(),
    authorId: user.id,
    text,
    renderedText: renderText(text, mediaIds.length > 0),
    createdAt: store.now(),
    mediaIds: [...mediaIds],
    ...(replyTo && { replyTo }),
    ...(body.reply_settings && { replySettings: body.reply_settings }),
    ...(body.quote_tweet_id && { quoteOf: body.quote_tweet_id }),
    ...(body.community_id && { communityId: body.community_id }),
    ...(body.poll && {
      poll: {
        id: store.snowflake(),
        options: [...body.poll.options],
        durationMinutes: body.poll.duration_minutes,
      },
    }),
  };
  store.tweets.push(tweet);
  return {
    status: 201,
    json: { data: { id: tweet.id, text: tweet.renderedText, edit_history_tweet_ids: [tweet.id] } },
  };
}

/** GET /2/communities/{id}: a Community's public description (name, access, member count). */
export function getCommunity(context: ApiContext): Reply {
  const community = context.store.communities.get(context.params.id ?? '');
  if (!community) return problems.notFound(`Could not find community with id: [${context.params.id ?? ''}].`);
  return {
    status: 200,
    json: {
      data: {
        id: community.id,
        name: community.name,
        access: community.access,
        join_policy:
          community.access === 'Public' ? 'Open' : 'RestrictedJoinRequestsRequireModeratorApproval',
        member_count: community.memberIds.size,
      },
    },
  };
}
