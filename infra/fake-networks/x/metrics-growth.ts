import type { FakeTweet, FakeXStore, FakeXUser } from './store.js';

/**
 * The fake's numbers, which grow with its clock (store.now(), moved by control.advanceClock): a
 * tweet's with the square root of its age in minutes, scaled by a factor from its id so two
 * tweets differ; a user's followers by one an hour since the fake started. Never smaller later.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** X's `public_metrics` of a Post, named as X's reference names them (`retweet_count`). */
export function tweetPublicMetrics(tweet: FakeTweet, nowMs: number): Record<string, number> {
  const reach =
    Math.sqrt(Math.max(0, nowMs - tweet.createdAt) / MINUTE_MS) * (1 + Number(BigInt(tweet.id) % 5n));
  return {
    retweet_count: Math.floor(reach / 4),
    reply_count: Math.floor(reach / 3),
    like_count: Math.floor(reach * 1.5),
    quote_count: Math.floor(reach / 10),
    bookmark_count: Math.floor(reach / 5),
    impression_count: Math.floor(reach * 40),
  };
}

/** `non_public_metrics`: only for the author's own Posts of the last 30 days (metrics-routes.ts). */
export function tweetNonPublicMetrics(tweet: FakeTweet, nowMs: number): Record<string, number> {
  const { impression_count, like_count } = tweetPublicMetrics(tweet, nowMs);
  return {
    impression_count: impression_count ?? 0,
    url_link_clicks: Math.floor((like_count ?? 0) / 2),
    user_profile_clicks: Math.floor((like_count ?? 0) / 3),
  };
}

/** X's `public_metrics` of a User (GET /2/users/me?user.fields=public_metrics). */
export function userPublicMetrics(user: FakeXUser, store: FakeXStore): Record<string, number> {
  return {
    followers_count:
      (user.followers ?? 100) + Math.floor(Math.max(0, store.now() - store.startedAt) / HOUR_MS),
    following_count: user.following ?? 50,
    tweet_count: store.tweetsBy(user.id).length,
    listed_count: 0,
  };
}
