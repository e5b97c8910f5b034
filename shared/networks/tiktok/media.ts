import type { DeliveryMedia } from '../../ports/connector.js';
import { failed, TikTokStepFailed } from './errors.js';
import {
  TIKTOK_MAX_PHOTO_BYTES,
  TIKTOK_MAX_VIDEO_BYTES,
  TIKTOK_PHOTO_TYPES,
  TIKTOK_VIDEO_TYPES,
} from './limits.js';

/** One video, or 1–35 photos (networks/tiktok.md §6): never mixed. */
export type TikTokShape =
  | { kind: 'video'; video: DeliveryMedia }
  | { kind: 'photo'; photos: DeliveryMedia[] };

export function shapeOf(media: readonly DeliveryMedia[]): TikTokShape | undefined {
  const [first] = media;
  if (media.length === 1 && first?.kind === 'video') return { kind: 'video', video: first };
  if (media.length >= 1 && media.length <= 35 && media.every((item) => item.kind === 'image')) {
    return { kind: 'photo', photos: [...media] };
  }
  return undefined;
}

/** The post's media as progress names them (media ids, URL media by their URL). */
export function refOf(media: readonly DeliveryMedia[]): string {
  return media.map((item, index) => item.stored?.mediaId ?? item.url ?? `#${index}`).join(',');
}

function refuse(code: string, message: string): TikTokStepFailed {
  return new TikTokStepFailed(failed({ failure: 'permanent', code, message }));
}

/** The stored video's key, size and type, checked against TikTok's limits before any call. */
export function storedVideo(video: DeliveryMedia): { key: string; size: number; contentType: string } {
  const stored = video.stored;
  if (!stored?.objectKey || stored.sizeBytes === undefined) {
    throw refuse('MEDIA_UNAVAILABLE', 'The video has no stored bytes to upload.');
  }
  if (!TIKTOK_VIDEO_TYPES.includes(stored.mimeType)) {
    throw refuse('MEDIA_UNSUPPORTED_FORMAT', 'TikTok takes MP4, MOV or WebM videos.');
  }
  if (stored.sizeBytes > TIKTOK_MAX_VIDEO_BYTES) {
    throw refuse('MEDIA_TOO_LARGE', 'TikTok takes a video of at most 4 GB.');
  }
  return { key: stored.objectKey, size: stored.sizeBytes, contentType: stored.mimeType };
}

/**
 * The video's length (read from its container when it was stored) against the creator's longest
 * (creator_info's `max_video_post_duration_sec`): checked after creator_info and before the init,
 * so a video TikTok would refuse after the whole upload (`duration_check_failed`) is never sent.
 * An unknown length is TikTok's to check.
 */
export function checkDuration(video: DeliveryMedia, maxSeconds: number | undefined): void {
  const seconds = video.stored?.durationSeconds;
  if (seconds === undefined || maxSeconds === undefined || seconds <= maxSeconds) return;
  throw refuse(
    'MEDIA_DURATION_INVALID',
    `The video is ${Math.ceil(seconds)} s long; TikTok lets this creator post videos of at most ${maxSeconds} s.`,
  );
}

/** Photos: JPEG or WebP (TikTok refuses PNG), at most 20 MB each. */
export function checkPhotos(photos: readonly DeliveryMedia[]): void {
  for (const photo of photos) {
    const stored = photo.stored;
    if (stored && !TIKTOK_PHOTO_TYPES.includes(stored.mimeType)) {
      throw refuse('MEDIA_UNSUPPORTED_FORMAT', 'TikTok takes JPEG or WebP photos (not PNG).');
    }
    if (stored?.sizeBytes !== undefined && stored.sizeBytes > TIKTOK_MAX_PHOTO_BYTES) {
      throw refuse('MEDIA_TOO_LARGE', 'TikTok takes photos of at most 20 MB.');
    }
  }
}
