/** X's post ids: 1–19 digits (x-api-v2-openapi.json `quote_tweet_id`, `in_reply_to_tweet_id`). */
const TWEET_ID = /^[0-9]{1,19}$/;

/**
 * A post's address on X as people copy it: x.com or twitter.com (www. and mobile. too), with the
 * author's name or `i/web`, then `/status/<id>`, anything after the id ignored (`/photo/1`, `?s=20`).
 */
const STATUS_URL =
  /^https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/(?:i\/web|[A-Za-z0-9_]{1,15})\/status(?:es)?\/([0-9]{1,19})(?:[/?#].*)?$/i;

/** The post id a user gave, as an id or an address; undefined when it is neither. */
export function tweetIdOf(value: string): string | undefined {
  const trimmed = value.trim();
  if (TWEET_ID.test(trimmed)) return trimmed;
  return STATUS_URL.exec(trimmed)?.[1];
}
