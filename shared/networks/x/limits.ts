/**
 * X's numbers the connector acts on, kept in one place so the docs (docs/networks.md) and the fake
 * can name them. X counts media sizes in binary units: initialize's `total_bytes` schema maximum of
 * "16 GB" is 17,179,869,184 (16 × 2^30), and its refusals read "File size exceeds 5242880 bytes."
 */

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * The largest file per media_category for an account without X Premium, from the most specific
 * pages: the initialize reference and the media best practices
 * (https://docs.x.com/x-api/media/initialize-media-upload,
 * https://docs.x.com/x-api/media/quickstart/best-practices). The media overview's "Video: 512 MB"
 * is the old limit, now only DM video's. X Premium / verified accounts may send more (16 GB of Post
 * video, 1 GB of DM video), but the connector cannot know an account's subscription, so it holds
 * every account to the default caps; the service's own video limit (1 GiB) is far below them anyway.
 */
export const X_CATEGORY_MAX_BYTES = {
  tweet_image: 5 * MiB,
  tweet_gif: 15 * MiB,
  tweet_video: 8 * GiB,
} as const;

/**
 * One APPEND segment: X's append reference says to keep each at or below 5 MB and that the server
 * takes up to 8 MB (https://docs.x.com/x-api/media/append-media-upload). The connector reads and
 * sends 4 MiB, which bounds what one chunk holds in memory, and grows a segment (up to the server
 * maximum) only when a file would otherwise need more than X_MAX_SEGMENTS of them.
 */
export const X_CHUNK_BYTES = 4 * MiB;
export const X_SEGMENT_MAX_BYTES = 8 * MiB;

/** `segment_index` is 0–999 (openapi AppendMediaUploadRequest): a file needs at most 1000 segments. */
export const X_MAX_SEGMENTS = 1000;

/**
 * The largest file one upload can carry: 1,000 segments of 8 MiB (8,388,608,000 bytes), a little
 * under the 8 GB X allows a Post's video. X's pages disagree here: 8 GiB (let alone a Premium
 * account's 16 GiB) cannot be sent in 1,000 segments of at most 8 MB each.
 */
export const X_MAX_UPLOAD_BYTES = X_MAX_SEGMENTS * X_SEGMENT_MAX_BYTES;

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

export type XMediaCategory = keyof typeof X_CATEGORY_MAX_BYTES;

export function isXMediaType(mimeType: string): mimeType is XMediaType {
  return (X_MEDIA_TYPES as readonly string[]).includes(mimeType);
}

/** What X calls the file (media_category) and the most the connector sends of it. */
export function mediaCategoryOf(mimeType: XMediaType): { category: XMediaCategory; maxBytes: number } {
  const category: XMediaCategory =
    mimeType === 'image/gif' ? 'tweet_gif' : mimeType.startsWith('image/') ? 'tweet_image' : 'tweet_video';
  return { category, maxBytes: Math.min(X_CATEGORY_MAX_BYTES[category], X_MAX_UPLOAD_BYTES) };
}

/** How a file is cut into APPEND segments: `segmentBytes` each (the last one shorter). */
export interface SegmentPlan {
  segmentBytes: number;
  segments: number;
}

/**
 * Segments of `preferredBytes` (at most 8 MiB), or larger ones when that would take more than 1,000 of them; none
 * (undefined) when even 8 MiB segments would. Derived from the file's size alone, so every
 * invocation of a resumed upload cuts the file the same way.
 */
export function segmentPlan(sizeBytes: number, preferredBytes: number): SegmentPlan | undefined {
  const preferred = Math.min(preferredBytes, X_SEGMENT_MAX_BYTES);
  const segmentBytes = Math.max(preferred, Math.ceil(sizeBytes / X_MAX_SEGMENTS));
  if (segmentBytes > X_SEGMENT_MAX_BYTES) return undefined;
  return { segmentBytes, segments: Math.ceil(sizeBytes / segmentBytes) };
}
