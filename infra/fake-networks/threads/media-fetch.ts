/** What the fake made of a media URL: its type and size, or why Threads would refuse it. */
export type FetchedMedia =
  | { ok: true; contentType: string; bytes: number }
  | { ok: false; reason: 'unreachable' | 'too_large' | 'unsupported' };

const MAGIC: Readonly<Record<string, readonly number[]>> = {
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/png': [0x89, 0x50, 0x4e, 0x47],
};
const VIDEO_TYPES = ['video/mp4', 'video/quicktime'];

/**
 * Fetches a media URL as Meta's crawler does (threads.md §1: the media must be public when the
 * container is made). Loopback http is allowed: on the local host the presigned URL points at
 * s3rver. Images JPEG or PNG (by type and first bytes) ≤ 8 MB; videos MP4 or MOV ≤ 1 GB (§6).
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
    const magic = MAGIC[contentType];
    if (!magic?.every((byte, i) => body[i] === byte)) return { ok: false, reason: 'unsupported' };
    if (body.length > limits.maxImageBytes) return { ok: false, reason: 'too_large' };
  } else {
    if (!VIDEO_TYPES.includes(contentType)) return { ok: false, reason: 'unsupported' };
    if (body.length > limits.maxVideoBytes) return { ok: false, reason: 'too_large' };
  }
  return { ok: true, contentType, bytes: body.length };
}
