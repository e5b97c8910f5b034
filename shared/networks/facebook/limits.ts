/**
 * The Graph API version the connector calls (`/v24.0/...`): an unversioned call gets the oldest
 * version Meta still serves, which changes under us. The consent page's default URL names the same
 * version (definition.ts). Bumped deliberately after re-reading the Pages pages.
 */
export const FACEBOOK_GRAPH_VERSION = 'v24.0';

/**
 * How long a presigned media URL lives: Meta fetches a photo while it answers the call, a video
 * soon after. Thirty minutes: long enough for a large video's fetch, never hours.
 */
export const FACEBOOK_MEDIA_URL_SECONDS = 30 * 60;

/** When to read a video's or reel's processing status again. */
export const FACEBOOK_CHECK_AFTER_SECONDS = 30;

/** Multi-photo posts: unpublished photos attached to one feed post (facebook-pages.md §2.3; 10 is our cap). */
export const FACEBOOK_MULTI_PHOTO_MIN = 2;
export const FACEBOOK_MULTI_PHOTO_MAX = 10;

/** Photos: JPEG, PNG, GIF, BMP, TIFF; over 4 MB Meta refuses them (1366046, §2.2). */
export const FACEBOOK_IMAGE_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/bmp',
  'image/tiff',
];
export const FACEBOOK_MAX_IMAGE_BYTES = 4 * 1000 * 1000;
/** Videos and reels: MP4 or MOV; up to 10 GB for feed videos (third-party, unconfirmed). */
export const FACEBOOK_VIDEO_TYPES: readonly string[] = ['video/mp4', 'video/quicktime'];
export const FACEBOOK_MAX_VIDEO_BYTES = 10 * 1000 * 1000 * 1000;

/** Our clock and Meta's may disagree: a post this long before the attempt still matches. */
export const FACEBOOK_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** How many of the Page's latest posts a look-up reads. */
export const FACEBOOK_LOOKUP_PAGE_SIZE = 50;

/** A post's address when Meta does not name its permalink. */
export function facebookPostUrl(postId: string): string {
  const [pageId, storyId] = postId.split('_');
  return storyId
    ? `https://www.facebook.com/${pageId}/posts/${storyId}`
    : `https://www.facebook.com/${postId}`;
}

export function facebookReelUrl(videoId: string): string {
  return `https://www.facebook.com/reel/${videoId}`;
}

export function facebookVideoUrl(pageId: string, videoId: string): string {
  return `https://www.facebook.com/${pageId}/videos/${videoId}`;
}
