import type { DeliveryMedia } from '../../ports/connector.js';
import { type FailedOutcome, failed } from '../publish/failed-outcome.js';
import {
  FACEBOOK_IMAGE_TYPES,
  FACEBOOK_MAX_IMAGE_BYTES,
  FACEBOOK_MAX_VIDEO_BYTES,
  FACEBOOK_MULTI_PHOTO_MAX,
  FACEBOOK_MULTI_PHOTO_MIN,
  FACEBOOK_VIDEO_TYPES,
} from './limits.js';

export type FacebookPostType = 'text' | 'image' | 'carousel' | 'video' | 'reel';
export const FACEBOOK_POST_TYPES: readonly string[] = ['text', 'image', 'carousel', 'video', 'reel'];

/** Why the post cannot be made on Facebook as it stands, or undefined (the rules refused most at create). */
export function shapeProblem(postType: string, media: readonly DeliveryMedia[]): string | undefined {
  const kinds = media.map((item) => item.kind);
  const only = (kind: DeliveryMedia['kind']) => kinds.length === 1 && kinds[0] === kind;
  switch (postType) {
    case 'text':
      return kinds.length === 0 ? undefined : 'A Facebook text post has no media.';
    case 'image':
      return only('image') ? undefined : 'A Facebook photo post has one image.';
    case 'video':
      return only('video') ? undefined : 'A Facebook video post has one video.';
    case 'reel':
      return only('video') ? undefined : 'A Facebook reel has one video.';
    case 'carousel':
      return kinds.length >= FACEBOOK_MULTI_PHOTO_MIN &&
        kinds.length <= FACEBOOK_MULTI_PHOTO_MAX &&
        kinds.every((kind) => kind === 'image')
        ? undefined
        : `A Facebook multi-photo post has ${FACEBOOK_MULTI_PHOTO_MIN} to ${FACEBOOK_MULTI_PHOTO_MAX} images.`;
    default:
      return `Facebook Pages do not publish ${postType} posts.`;
  }
}

/**
 * A stored file Meta is sure to refuse when it fetches it (a type it does not take, too large):
 * refused here, before anything is made for nothing. Meta checks again when it fetches.
 */
export function fileProblem(media: readonly DeliveryMedia[]): FailedOutcome | undefined {
  for (const [index, item] of media.entries()) {
    const stored = item.stored;
    if (!stored || item.kind === 'document') continue;
    const image = item.kind === 'image';
    const types = image ? FACEBOOK_IMAGE_TYPES : FACEBOOK_VIDEO_TYPES;
    if (!types.includes(stored.mimeType.toLowerCase())) {
      return failed(
        'permanent',
        'MEDIA_TYPE_UNSUPPORTED',
        image
          ? `Facebook takes JPEG, PNG, GIF, BMP or TIFF photos; media item ${index + 1} is ${stored.mimeType}.`
          : `Facebook takes MP4 or MOV videos; media item ${index + 1} is ${stored.mimeType}.`,
      );
    }
    if (stored.sizeBytes > (image ? FACEBOOK_MAX_IMAGE_BYTES : FACEBOOK_MAX_VIDEO_BYTES)) {
      return failed(
        'permanent',
        'MEDIA_TOO_LARGE',
        image
          ? `Facebook takes photos up to 4 MB; media item ${index + 1} is larger.`
          : `Facebook takes videos up to 10 GB; media item ${index + 1} is larger.`,
      );
    }
  }
  return undefined;
}
