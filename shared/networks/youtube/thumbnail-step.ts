import type { DeliveryMedia } from '../../ports/connector.js';
import { readGoogleError } from './errors.js';
import { YOUTUBE_THUMBNAIL_MAX_BYTES, YOUTUBE_THUMBNAIL_TYPES } from './options-schema.js';
import type { StepState } from './progress.js';
import { callOnce, isPassing, type StepContext } from './step-context.js';

/** Why a thumbnail was not set, as kept in progress; the warning's words (after-publish.ts) come from it. */
export const THUMBNAIL_REASONS = {
  missing: 'the thumbnail image could not be read from storage',
  type: 'the thumbnail is not a JPEG or PNG image',
  size: 'the thumbnail is larger than 2 MB',
  not_allowed:
    'YouTube does not let this channel set custom thumbnails (the channel must be verified, e.g. by phone at https://www.youtube.com/verify)',
  invalid: 'YouTube refused the image as invalid',
  quota: "the service's daily YouTube API quota is used up",
  refused: 'YouTube refused to set it',
  unavailable: 'YouTube kept failing to set it',
  interrupted: 'the attempt that was setting it was interrupted',
  not_tried: 'the publish attempt was interrupted before setting it',
} as const;
export type ThumbnailReason = keyof typeof THUMBNAIL_REASONS;

const failed = (why: ThumbnailReason): StepState => ({ s: 'failed', why });

/**
 * thumbnails.set (POST {upload}/thumbnails/set?videoId=&uploadType=media, the image as the body;
 * about 50 units; the upload scope suffices). Setting it again only replaces the image, so a call
 * with no answer is simply made again (`retry`). The image is checked first (JPEG or PNG, ≤ 2 MB):
 * YouTube would only refuse it.
 */
export async function setThumbnail(
  context: StepContext,
  videoId: string,
  thumbnail: DeliveryMedia | undefined,
  tries: number,
): Promise<StepState> {
  const stored = thumbnail?.stored;
  if (!stored?.objectKey || !context.bytes) return failed('missing');
  if (!(YOUTUBE_THUMBNAIL_TYPES as readonly string[]).includes(stored.mimeType)) return failed('type');
  if (stored.sizeBytes > YOUTUBE_THUMBNAIL_MAX_BYTES) return failed('size');
  let image: Uint8Array;
  try {
    image = await context.bytes.readRange(stored.objectKey, 0, stored.sizeBytes, context.signal);
  } catch {
    return { s: 'retry', tries: tries + 1 };
  }
  const result = await callOnce(() =>
    context.api({
      method: 'POST',
      url: `${context.uploadUrl}/thumbnails/set`,
      accessToken: context.accessToken,
      query: { videoId, uploadType: 'media' },
      headers: { 'Content-Type': stored.mimeType },
      bytes: image,
      signal: context.signal,
    }),
  );
  if (result.kind !== 'answered') return { s: 'retry', tries: tries + 1 };
  if (result.response.ok) {
    await result.response.body?.cancel();
    return { s: 'done' };
  }
  const facts = await readGoogleError(result.response);
  if (facts.reason === 'quotaExceeded') return failed('quota');
  if (isPassing(facts)) return { s: 'retry', tries: tries + 1 };
  if (facts.status === 403 && facts.reason === 'forbidden') return failed('not_allowed');
  if (facts.reason === 'invalidImage' || facts.reason === 'mediaBodyRequired' || facts.status === 413) {
    return failed('invalid');
  }
  return failed('refused');
}
