/**
 * How long a presigned media URL lives: Instagram fetches the media while it makes the container,
 * usually in seconds; a video may be fetched a little later. Fifteen minutes, never hours.
 */
export const INSTAGRAM_MEDIA_URL_SECONDS = 15 * 60;

/** When to check a container again (Meta suggests about once a minute for video). */
export const INSTAGRAM_CHECK_AFTER_SECONDS = { image: 10, video: 60 } as const;

/** Carousel items (instagram.md §3). */
export const INSTAGRAM_CAROUSEL_MAX_ITEMS = 10;
export const INSTAGRAM_CAROUSEL_MIN_ITEMS = 2;

/** The publishing window: `content_publishing_limit` counts posts over a rolling 24 hours. */
export const INSTAGRAM_PUBLISH_WINDOW_SECONDS = 24 * 60 * 60;

/** Our clock and Meta's may disagree: a post this long before our record still counts. */
export const INSTAGRAM_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Where an account's profile is, when a post's permalink could not be read. */
export function instagramProfileUrl(handle: string): string {
  return `https://www.instagram.com/${handle.replace(/^@/, '')}/`;
}

/** Instagram takes JPEG images only, up to 8 MiB (instagram.md §3). */
export const INSTAGRAM_IMAGE_TYPES: readonly string[] = ['image/jpeg'];
export const INSTAGRAM_MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** Reels and videos: MP4 or MOV, up to 300 MB (instagram.md §3). */
export const INSTAGRAM_VIDEO_TYPES: readonly string[] = ['video/mp4', 'video/quicktime'];
export const INSTAGRAM_MAX_VIDEO_BYTES = 300 * 1000 * 1000;
