/** Why a network's crawler would refuse a media URL. */
export type MediaRefusal = { ok: false; reason: 'unreachable' | 'too_large' | 'unsupported' };

/** What the fake made of a media URL: its type and size, or why the network would refuse it. */
export type FetchedMedia = { ok: true; contentType: string; bytes: number } | MediaRefusal;

/** The bytes at a media URL and the type it was served with, or `unreachable`. */
export type DownloadedMedia =
  | { ok: true; contentType: string; body: Uint8Array }
  | { ok: false; reason: 'unreachable' };

/** What a network takes: image types (each told by one of its first-bytes signatures), video types, sizes. */
export interface MediaRules {
  imageSignatures: Readonly<Record<string, readonly (readonly number[])[]>>;
  videoTypes: readonly string[];
  maxImageBytes: number;
  maxVideoBytes: number;
}

/**
 * Fetches a media URL as Meta's crawler does. Loopback http is allowed: on the local host the
 * presigned URL points at s3rver. A failed request, a non-2xx answer or a broken body: unreachable.
 */
export async function downloadMedia(url: string | URL): Promise<DownloadedMedia> {
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
  try {
    return { ok: true, contentType, body: new Uint8Array(await response.arrayBuffer()) };
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
}

/** Bytes judged by type (and, for images, first bytes) and then by size. */
export function judgeMedia(
  body: Uint8Array,
  contentType: string,
  kind: 'image' | 'video',
  rules: MediaRules,
): FetchedMedia {
  if (kind === 'image') {
    const signatures = Object.hasOwn(rules.imageSignatures, contentType)
      ? rules.imageSignatures[contentType]
      : undefined;
    if (!signatures?.some((signature) => signature.every((byte, i) => body[i] === byte)))
      return { ok: false, reason: 'unsupported' };
    if (body.length > rules.maxImageBytes) return { ok: false, reason: 'too_large' };
  } else {
    if (!rules.videoTypes.includes(contentType)) return { ok: false, reason: 'unsupported' };
    if (body.length > rules.maxVideoBytes) return { ok: false, reason: 'too_large' };
  }
  return { ok: true, contentType, bytes: body.length };
}

/** Fetches a media URL and judges what came back. */
export async function fetchMedia(
  url: string,
  kind: 'image' | 'video',
  rules: MediaRules,
): Promise<FetchedMedia> {
  const downloaded = await downloadMedia(url);
  if (!downloaded.ok) return downloaded;
  return judgeMedia(downloaded.body, downloaded.contentType, kind, rules);
}
