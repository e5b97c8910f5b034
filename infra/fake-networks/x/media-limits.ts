/**
 * What X's upload takes per media_category, written from X's pages rather than from the connector's
 * constants, so a wrong number in one does not hide in the other. Sizes in binary units, as X's
 * own are (initialize's `total_bytes` maximum "16 GB" is 17,179,869,184).
 *
 * Sources: https://docs.x.com/x-api/media/initialize-media-upload (the table per account and
 * category) and https://docs.x.com/x-api/media/quickstart/best-practices (the same, plus "limits
 * follow the authenticated user (X Premium / verified status)").
 */

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

interface CategoryRule {
  /** The media types the category takes. */
  fits: (mediaType: string) => boolean;
  /** Largest file for a default account and for an X Premium / verified one. */
  maxBytes: { standard: number; premium: number };
  /** Whether a Post (POST /2/tweets) may carry it: DM media and subtitles may not. */
  onPost: boolean;
  /** Whether X processes it after FINALIZE (answers `processing_info`): GIFs and videos. */
  processed: boolean;
}

const isStill = (type: string) => type.startsWith('image/') && type !== 'image/gif';
const isGif = (type: string) => type === 'image/gif';
const isVideo = (type: string) => type.startsWith('video/');
const same = (bytes: number) => ({ standard: bytes, premium: bytes });

/**
 * initialize's schema caps `total_bytes` at 16 GiB; X documents no size of its own for subtitles,
 * so the fake takes up to that for them (lenient where X says nothing).
 */
const SCHEMA_MAX_BYTES = 16 * GiB;

/** "For Posts, Premium and default duration/size caps are the same for tweet_video and amplify_video." */
const POST_VIDEO_BYTES = { standard: 8 * GiB, premium: 16 * GiB };

export const CATEGORY_RULES: Readonly<Record<string, CategoryRule>> = {
  tweet_image: { fits: isStill, maxBytes: same(5 * MiB), onPost: true, processed: false },
  dm_image: { fits: isStill, maxBytes: same(5 * MiB), onPost: false, processed: false },
  tweet_gif: { fits: isGif, maxBytes: same(15 * MiB), onPost: true, processed: true },
  dm_gif: { fits: isGif, maxBytes: same(15 * MiB), onPost: false, processed: true },
  tweet_video: { fits: isVideo, maxBytes: POST_VIDEO_BYTES, onPost: true, processed: true },
  amplify_video: { fits: isVideo, maxBytes: POST_VIDEO_BYTES, onPost: true, processed: true },
  dm_video: {
    fits: isVideo,
    maxBytes: { standard: 512 * MiB, premium: GiB },
    onPost: false,
    processed: true,
  },
  subtitles: {
    fits: (type) => type === 'text/srt' || type === 'text/vtt',
    maxBytes: same(SCHEMA_MAX_BYTES),
    onPost: false,
    processed: false,
  },
};

/** "If media category is not specified, … tweet_image, tweet_video, or tweet_gif, depending on the content type." */
export function defaultCategory(mediaType: string): string {
  if (isGif(mediaType)) return 'tweet_gif';
  return isVideo(mediaType) ? 'tweet_video' : 'tweet_image';
}

/**
 * X's append reference: "Keep each segment at or below 5 MB (server maximum is 8 MB)"
 * (https://docs.x.com/x-api/media/append-media-upload). The fake refuses past the server maximum.
 */
export const MAX_SEGMENT_BYTES = 8 * MiB;
