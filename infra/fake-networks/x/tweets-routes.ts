import { problems, type Reply } from './http.js';
import { CATEGORY_RULES } from './media-limits.js';
import { isTextTooLong, renderText } from './render.js';
import type { ApiContext } from './route.js';

interface CreateTweetBody {
  text?: string;
  media?: { media_ids: string[] };
  reply?: { in_reply_to_tweet_id: string };
  reply_settings?: string;
}

/**
 * POST /2/tweets, after the body passed X's OpenAPI schema (index.ts): the checks X makes of what
 * the schema cannot say (twitter.md §1–2, §5), then the tweet is stored.
 */
export function createTweet(context: ApiContext): Reply {
  const body = context.json as CreateTweetBody;
  const text = body.text ?? '';
  const mediaIds = body.media?.media_ids ?? [];
  const { store, user } = context;
  if (!text && mediaIds.length === 0) return problems.invalid('Text or media is required.', { text: [] });
  if (isTextTooLong(text)) return problems.invalid('Your Tweet text is too long.', { text: [] });

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
  if (replyTo && !store.tweets.some((tweet) => tweet.id === replyTo)) {
    return {
      status: 403,
      json: {
        detail: 'You attempted to reply to a Tweet that is deleted or not visible to you.',
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
      },
    };
  }
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
  };
  store.tweets.push(tweet);
  return {
    status: 201,
    json: { data: { id: tweet.id, text: tweet.renderedText, edit_history_tweet_ids: [tweet.id] } },
  };
}
