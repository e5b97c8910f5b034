import { type FetchedMedia, fetchMedia as fetchAndJudge } from '../shared/media-fetch.js';

export type { FetchedMedia } from '../shared/media-fetch.js';

/** Instagram takes JPEG images only, told by type and by their first bytes. */
const IMAGE_SIGNATURES: Readonly<Record<string, readonly number[][]>> = {
  'image/jpeg': [[0xff, 0xd8, 0xff]],
};
const VIDEO_TYPES = ['video/mp4', 'video/quicktime'];

/**
 * Fetches a media URL as Meta's crawler does (instagram.md §1: Meta cURLs it). Images must be JPEG
 * and ≤ the image limit; videos MP4 or MOV and ≤ the video limit.
 */
export function fetchMedia(
  url: string,
  kind: 'image' | 'video',
  limits: { maxImageBytes: number; maxVideoBytes: number },
): Promise<FetchedMedia> {
  return fetchAndJudge(url, kind, { imageSignatures: IMAGE_SIGNATURES, videoTypes: VIDEO_TYPES, ...limits });
}
