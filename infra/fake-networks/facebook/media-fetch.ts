import { bufferSource } from '../../../shared/adapters/video-probe/byte-source.js';
import { readIsoBmff } from '../../../shared/adapters/video-probe/iso-bmff.js';
import { downloadMedia, judgeMedia } from '../shared/media-fetch.js';

/** What the fake made of a media URL: its type, size and (videos) what the container says, or why Meta would refuse it. */
export type FetchedMedia =
  | {
      ok: true;
      contentType: string;
      bytes: number;
      durationSeconds?: number;
      width?: number;
      height?: number;
    }
  | { ok: false; reason: 'unreachable' | 'too_large' | 'unsupported' };

/** Photo types Meta takes (facebook-pages.md §2.2), each told by its first bytes as well as its type. */
const IMAGE_MAGIC: Readonly<Record<string, readonly number[][]>> = {
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/png': [[0x89, 0x50, 0x4e, 0x47]],
  'image/gif': [[0x47, 0x49, 0x46, 0x38]],
  'image/bmp': [[0x42, 0x4d]],
  'image/tiff': [
    [0x49, 0x49, 0x2a, 0x00],
    [0x4d, 0x4d, 0x00, 0x2a],
  ],
};
const VIDEO_TYPES = ['video/mp4', 'video/quicktime'];

/**
 * Fetches a media URL as Meta's crawler does (`url`, `file_url`), and only a loopback one: the fake
 * never fetches off the machine.
 */
export async function fetchMedia(
  url: string,
  kind: 'image' | 'video',
  limits: { maxImageBytes: number; maxVideoBytes: number },
): Promise<FetchedMedia> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname))
    return { ok: false, reason: 'unreachable' };
  const downloaded = await downloadMedia(parsed);
  if (!downloaded.ok) return downloaded;
  return judge(downloaded.body, downloaded.contentType, kind, limits);
}

/** Bytes sent in a request's body (a reel's direct upload), judged as fetched media are. */
export async function judge(
  body: Uint8Array,
  contentType: string,
  kind: 'image' | 'video',
  limits: { maxImageBytes: number; maxVideoBytes: number },
): Promise<FetchedMedia> {
  const judged = judgeMedia(body, contentType, kind, {
    imageSignatures: IMAGE_MAGIC,
    videoTypes: VIDEO_TYPES,
    ...limits,
  });
  if (!judged.ok || kind === 'image') return judged;
  const facts = await readIsoBmff(bufferSource(body)).catch(() => ({}));
  return { ...judged, ...facts };
}
