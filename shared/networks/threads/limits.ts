/**
 * Threads' numbers (docs/research/threads.md), in one place: the connector, the rules and the docs
 * read them from here.
 */

/** §7: a post's text is at most 500 characters, an emoji counting its UTF-8 bytes. */
export const THREADS_MAX_TEXT = 500;
/** §7: at most 5 distinct links per post (text URLs and the link attachment together). */
export const THREADS_MAX_LINKS = 5;
/** §6: a carousel takes 2 to 20 images and videos, mixed. */
export const THREADS_CAROUSEL_MIN_ITEMS = 2;
export const THREADS_CAROUSEL_MAX_ITEMS = 20;
/** A thread of one post is just a post; Threads sets no ceiling on a reply chain: 25 is ours, as X's. */
export const THREADS_THREAD_MIN_ITEMS = 2;
export const THREADS_THREAD_MAX_ITEMS = 25;
/** §7 (third-party, unconfirmed): a topic tag is 1 to 50 characters, without `.` or `&`. */
export const THREADS_TOPIC_TAG_MAX = 50;

/** §6: JPEG or PNG images up to 8 MB; MP4 or MOV videos up to 1 GB and 5 minutes. */
export const THREADS_IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png'];
export const THREADS_MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const THREADS_VIDEO_TYPES: readonly string[] = ['video/mp4', 'video/quicktime'];
export const THREADS_MAX_VIDEO_BYTES = 1024 * 1024 * 1024;
export const THREADS_MAX_VIDEO_SECONDS = 300;

/** How long a presigned media URL lives: Meta fetches while it prepares the container. */
export const THREADS_MEDIA_URL_SECONDS = 15 * 60;
/**
 * When to check a container again: Meta advises about 30 s before publishing and polling once a
 * minute for media (§4); a text container is usually ready at once.
 */
export const THREADS_CHECK_AFTER_SECONDS = { text: 10, image: 30, video: 60 } as const;
/** §10: "Media Not Found" (24/4279009) on a just-made container: wait about 30 s and publish again. */
export const THREADS_NOT_READY_RETRY_SECONDS = 30;

/** §8: 250 posts and 1,000 replies per rolling 24 hours. */
export const THREADS_DAILY_POSTS = 250;
export const THREADS_DAILY_REPLIES = 1000;
export const THREADS_PUBLISH_WINDOW_SECONDS = 24 * 60 * 60;

/** Our clock and Meta's may disagree: a post this long before our record still counts. */
export const THREADS_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** How many of the account's recent posts (or replies) a look-up reads. */
export const THREADS_LISTING_LIMIT = 50;

/** Where an account's profile is, when a post's permalink could not be read. */
export function threadsProfileUrl(handle: string): string {
  return `https://www.threads.net/@${handle.replace(/^@/, '')}`;
}
