import { type FetchedMedia, fetchMedia as fetchAndJudge } from '../shared/media-fetch.js';

export type { FetchedMedia } from '../shared/media-fetch.js';

const IMAGE_SIGNATURES: Readonly<Record<string, readonly number[][]>> = {
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/png': [[0x89, 0x50, 0x4e, 0x47]],
};
const VIDEO_TYPES = ['video/mp4', 'video/quicktime'];

/**
 * Fetches a media URL as Meta's crawler does (threads.md §1: the media must be public when the
 * container is made). Images JPEG or PNG (by type and first bytes) ≤ 8 MB; videos MP4 or MOV ≤ 1 GB (§6).
 */
export function fetchMedia(
  url: string,
  kind: 'image' | 'video',
  limits: { maxImageBytes: number; maxVideoBytes: number },
): Promise<FetchedMedia> {
  return fetchAndJudge(url, kind, { imageSignatures: IMAGE_SIGNATURES, videoTypes: VIDEO_TYPES, ...limits });
}
