/** What the fake made of a media URL: its type and size, or why Instagram would refuse it. */
export type FetchedMedia =
  | { ok: true; contentType: string; bytes: number }
  | { ok: false; reason: 'unreachable' | 'too_large' | 'unsupported' };

const JPEG_MAGIC = [0xff, 0xd8, 0xff];
const VIDEO_TYPES = ['video/mp4', 'video/quicktime'];

/**
 * Fetches a media URL as Meta's crawler does (instagram.md §1: Meta cURLs it). Loopback http is
 * allowed: on the local host the presigned URL points at s3rver. Images must be JPEG (by type and
 * by their first bytes) and ≤ the image limit; videos MP4 or MOV and ≤ the video limit.
 */
export async function fetchMedia(
  url: string,
  kind: 'image' | 'video',
  limits: { maxImageBytes: number; maxVideoBytes: number },
): Promise<FetchedMedia> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
  if (!response.ok) {
    await response.arrayBuffer().catch(() => undefined);
    return { ok: false, reason: 'unreachable' };
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  let body: Uint8Array;
  try {
    body = new Uint8Array(await response.arrayBuffer());
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
  if (kind === 'image') {
    const isJpeg = contentType === 'image/jpeg' && JPEG_MAGIC.every((byte, i) => body[i] === byte);
    if (!isJpeg) return { ok: false, reason: 'unsupported' };
    if (body.length > limits.maxImageBytes) return { ok: false, reason: 'too_large' };
  } else {
    if (!VIDEO_TYPES.includes(contentType)) return { ok: false, reason: 'unsupported' };
    if (body.length > limits.maxVideoBytes) return { ok: false, reason: 'too_large' };
  }
  return { ok: true, contentType, bytes: body.length };
}
