import type { Post } from '../../domain/posts.js';
import { type TwitterOptions, type TwitterReplySettings, twitterOptionsSchema } from './options-schema.js';
import { tweetIdOf } from './tweet-ref.js';

/**
 * `platformOptions.twitter` of the post, parsed again: the post was validated when it was created,
 * and options that no longer parse (a value dropped since) fall back to none (X's defaults) rather
 * than fail the post.
 */
function optionsOf(post: Pick<Post, 'platformOptions'>): TwitterOptions {
  return twitterOptionsSchema.safeParse(post.platformOptions?.twitter ?? {}).data ?? {};
}

/** `platformOptions.twitter.replySettings` of the post, as X's `reply_settings`. */
export function replySettingsOf(post: Pick<Post, 'platformOptions'>): TwitterReplySettings | undefined {
  return optionsOf(post).replySettings;
}

/** What the post's first tweet carries beyond its text and media (the options, ids resolved). */
export interface FirstTweetExtras {
  /** X `reply.in_reply_to_tweet_id` of the first tweet: a post the user named. */
  replyTo?: string;
  quoteOf?: string;
  communityId?: string;
  poll?: { options: string[]; duration_minutes: number };
}

export function firstTweetExtras(post: Pick<Post, 'platformOptions'>): FirstTweetExtras {
  const options = optionsOf(post);
  const replyTo = options.replyTo && tweetIdOf(options.replyTo);
  const quoteOf = options.quoteOf && tweetIdOf(options.quoteOf);
  return {
    ...(replyTo && { replyTo }),
    ...(quoteOf && { quoteOf }),
    ...(options.communityId && { communityId: options.communityId }),
    ...(options.poll && {
      poll: { options: [...options.poll.options], duration_minutes: options.poll.durationMinutes },
    }),
  };
}
