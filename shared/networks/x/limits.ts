/**
 * X's numbers the connector acts on (../shared/networks/twitter.md §2), kept in one place so the
 * docs (docs/networks.md) and the fake can name them.
 */

/** twitter.md §2: image ≤ 5 MB, animated GIF ≤ 15 MB, video ≤ 512 MB. */
export const X_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const X_GIF_MAX_BYTES = 15 * 1024 * 1024;
export const X_VIDEO_MAX_BYTES = 512 * 1024 * 1024;

/**
 * One APPEND chunk. X's v1.1 reference caps a chunk at 5 MB (not restated for v2); 4 MiB stays
 * under it and bounds what one chunk holds in memory.
 */
export const X_CHUNK_BYTES = 4 * 1024 * 1024;

/** `segment_index` is 0–999 (openapi AppendMediaUploadRequest): a file needs at most 1000 chunks. */
export const X_MAX_SEGMENTS = 1000;

/** twitter.md §2: alt text ≤ 1000 characters. */
export const X_ALT_TEXT_MAX_CHARS = 1000;

/**
 * The media types X's initialize takes (openapi InitializeMediaUploadRequest.media_type) that a
 * post of ours can carry; HEIC (which the service accepts elsewhere) is not among them.
 */
export const X_MEDIA_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/quicktime',
  'video/webm',
] as const;
export type XMediaType = (typeof X_MEDIA_TYPES)[number];

export type XMediaCategory = 'tweet_image' | 'tweet_gif' | 'tweet_video';

export function isXMediaType(mimeType: string): mimeType is XMediaType {
  return (X_MEDIA_TYPES as readonly string[]).includes(mimeType);
}

/** What X calls the file (media_category) and the most it takes of it. */
export function mediaCategoryOf(mimeType: XMediaType): { category: XMediaCategory; maxBytes: number } {
  if (mimeType === 'image/gif') return { category: 'tweet_gif', maxBytes: X_GIF_MAX_BYTES };
  if (mimeType.startsWith('image/')) return { category: 'tweet_image', maxBytes: X_IMAGE_MAX_BYTES };
  return { category: 'tweet_video', maxBytes: X_VIDEO_MAX_BYTES };
}
