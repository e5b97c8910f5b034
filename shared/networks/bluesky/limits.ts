/**
 * Bluesky's numbers the connector, its rules and its fake act on (docs/research/bluesky.md), kept
 * in one place so docs/networks.md can name them.
 */

/** Lexicon `app.bsky.feed.post`: `text` ≤ 300 graphemes. */
export const BLUESKY_MAX_GRAPHEMES = 300;
/** Lexicon `app.bsky.feed.post`: `text` ≤ 3,000 bytes of UTF-8. */
export const BLUESKY_MAX_TEXT_BYTES = 3000;
/** Lexicon `app.bsky.embed.images`: 1–4 images. */
export const BLUESKY_MAX_IMAGES = 4;
/**
 * An image's largest blob. The lexicon now allows 2,000,000 bytes, the posts guide still says
 * 1,000,000: we hold images to the smaller, which every PDS and AppView takes (research §2b).
 */
export const BLUESKY_MAX_IMAGE_BYTES = 1_000_000;
/**
 * A video's largest file: the PDS blob cap (52,428,800 bytes, rate-limits page), below the
 * lexicon's 300,000,000, since the video service copies the result to the PDS (research §2c).
 */
export const BLUESKY_MAX_VIDEO_BYTES = 52_428_800;
/** Not in the developer docs: 3 minutes since 2025-03 by Bluesky's announcements (research §2c). */
export const BLUESKY_MAX_VIDEO_SECONDS = 180;
/** Lexicon `app.bsky.feed.post`: `langs` ≤ 3. */
export const BLUESKY_MAX_LANGS = 3;
/** Lexicon `app.bsky.richtext.facet#tag`: ≤ 64 graphemes. */
export const BLUESKY_MAX_TAG_GRAPHEMES = 64;
/** A thread of one post is just a post (ours). */
export const BLUESKY_THREAD_MIN_ITEMS = 2;
/** No documented ceiling: 25 bounds one publish job, as for X (ours). */
export const BLUESKY_THREAD_MAX_ITEMS = 25;
/**
 * Record writes per account: 5,000 points an hour, 35,000 a day, a create costs 3
 * (https://docs.bsky.app/docs/advanced-guides/rate-limits).
 */
export const BLUESKY_WRITE_POINTS = { hour: 5000, day: 35_000, create: 3, delete: 1 } as const;
/** 35,000 points a day at 3 a create: the most posts (records) a day. */
export const BLUESKY_DAILY_POSTS = Math.floor(BLUESKY_WRITE_POINTS.day / BLUESKY_WRITE_POINTS.create);
/** The scopes asked: `transition:generic` is what bsky.social and other PDSes take today (research §1a). */
export const BLUESKY_SCOPES = ['atproto', 'transition:generic'] as const;
/** How long a video service token is asked for (research §2c: the default 60 s is too short). */
export const BLUESKY_SERVICE_TOKEN_SECONDS = 30 * 60;
/**
 * How long an uploaded image blob is referenced from the progress rather than uploaded again: the
 * PDS deletes a blob no record references "within a time window (eg, minutes)" (lexicon
 * `com.atproto.repo.uploadBlob`); 5 minutes keeps well inside it.
 */
export const BLUESKY_BLOB_REUSE_MS = 5 * 60_000;
/** When the worker checks a video job again. */
export const BLUESKY_VIDEO_CHECK_SECONDS = 5;

/** Graphemes as people (and Bluesky) count them: an emoji ZWJ sequence is one. */
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
export function graphemeLength(text: string): number {
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
}
