import type { MediaKind } from './posts.js';

/** Supported media types (interface 2, "Supported media types"). */
export const MIME_TYPES_BY_KIND: Readonly<Record<MediaKind, readonly string[]>> = {
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic'],
  video: ['video/mp4', 'video/quicktime', 'video/webm'],
  document: ['application/pdf'],
};

export function mediaKindOf(mimeType: string): MediaKind | undefined {
  for (const [kind, types] of Object.entries(MIME_TYPES_BY_KIND) as [MediaKind, readonly string[]][]) {
    if (types.includes(mimeType)) return kind;
  }
  return undefined;
}

/**
 * `pending` until the bytes are in storage and match what was declared, then `uploaded`. An import
 * by URL whose fetch was refused or failed ends `failed`, with the reason in `error`.
 */
export type MediaStatus = 'pending' | 'uploaded' | 'failed';

/** Largest file per kind (docs/api-decisions.md#media). */
export const MAX_BYTES_BY_KIND: Readonly<Record<MediaKind, number>> = {
  image: 20 * 1024 * 1024,
  video: 1024 * 1024 * 1024,
  document: 100 * 1024 * 1024,
};

/** Longest file name, in UTF-8 bytes: what common file systems allow for one name. */
export const MAX_FILENAME_BYTES = 255;

/** Characters that never belong in a name: controls, invisible format characters, line breaks. */
const CONTROL = /\p{Cc}/u;
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}]/u;
const LONE_SURROGATE = /\p{Cs}/u;
const SEPARATOR = /[/\\]/;
const ONLY_DOTS_AND_SPACES = /^[.\s]*$/u;

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/**
 * Why a file name given for an upload is refused (400), or undefined. A name is shown to people and
 * may become a file name elsewhere (a download, a network's upload form), so it must be one plain
 * name that reads as what it is:
 * - 1–255 bytes of well-formed UTF-8;
 * - no control characters (U+0000–U+001F, U+007F–U+009F);
 * - no invisible format characters: bidirectional overrides and isolates ("\u202Egnp.exe" shows as
 *   "exe.png"), zero-width spaces and joiners, the byte-order mark, soft hyphens, line and
 *   paragraph separators;
 * - no path separators (/ or \), and not ".", ".." or only dots and spaces;
 * - no spaces at either end.
 * Anything else, accents, other scripts and emoji included, is kept exactly as given.
 */
export function filenameProblem(name: string): string | undefined {
  if (name.length === 0) return 'Give a file name.';
  if (LONE_SURROGATE.test(name)) return 'Not well-formed text.';
  if (utf8Bytes(name) > MAX_FILENAME_BYTES) return `At most ${MAX_FILENAME_BYTES} bytes of UTF-8.`;
  if (CONTROL.test(name)) return 'No control characters.';
  if (INVISIBLE.test(name))
    return 'No invisible formatting characters (bidirectional overrides, zero-width characters).';
  if (SEPARATOR.test(name)) return 'One file name, without / or \\.';
  if (ONLY_DOTS_AND_SPACES.test(name)) return 'Not a file name: ".", ".." or only dots and spaces.';
  if (name.trim() !== name) return 'No spaces at the start or end.';
  return undefined;
}

/** The filename a file fetched from a URL is known by: its last path segment, made a plain name. */
export function filenameOfUrl(url: string): string {
  return filenameFrom(new URL(url).pathname.split('/').filter(Boolean).pop() ?? '');
}

/**
 * A file name the service makes up from someone else's text (an imported URL's last path segment):
 * percent-decoded when that decodes, with every character `filenameProblem` refuses dropped (path
 * separators become "_"), trimmed, cut to 255 bytes, and `fallback` when nothing usable is left.
 * The result always passes `filenameProblem`.
 */
export function filenameFrom(raw: string, fallback = 'download'): string {
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape ("%E0%A4%A", a lone "%"): keep the text as it came.
  }
  let name = '';
  for (const char of decoded.replace(/\p{Cs}/gu, '')) {
    if (CONTROL.test(char) || INVISIBLE.test(char)) continue;
    const kept = SEPARATOR.test(char) ? '_' : char;
    if (utf8Bytes(name + kept) > MAX_FILENAME_BYTES) break;
    name += kept;
  }
  name = name.trim();
  return ONLY_DOTS_AND_SPACES.test(name) ? fallback : name;
}

/** How long an upload URL works (docs/api-decisions.md#media: 15 minutes). */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;

/** A media item of a workspace: uploaded through a presigned URL, or imported from a public URL. */
export interface Media {
  mediaId: string;
  tenantId: string;
  workspaceId: string;
  filename: string;
  mimeType: string;
  sizeBytes: number;
  status: MediaStatus;
  /** Where the bytes live in the media bucket. */
  objectKey?: string;
  source?: 'upload' | 'url';
  /** The public URL of an import, and the kind its caller declared (its type must fit). */
  sourceUrl?: string;
  declaredKind?: MediaKind;
  error?: { code: string; message: string };
  createdAt: string;
  uploadedAt?: string;
  /** A video's length in seconds, read from its container when it was stored; absent when unknown. */
  durationSeconds?: number;
  /** A video's frame size in pixels, where its container says it. */
  width?: number;
  height?: number;
}

/**
 * What a video's container says of it (shared/ports/video-probe.ts): each field absent when the file
 * does not say it or cannot be read, and then nothing is checked against it.
 */
export type VideoFacts = Partial<Pick<Media, 'durationSeconds' | 'width' | 'height'>>;

/** Where a media item's bytes live in the bucket: by tenant first, so access can be scoped by prefix. */
export function mediaObjectKey(tenantId: string, workspaceId: string, mediaId: string): string {
  return `t/${tenantId}/w/${workspaceId}/m/${mediaId}`;
}

/** The media an object key names, or undefined for a key of another shape. */
export function parseMediaObjectKey(
  key: string,
): { tenantId: string; workspaceId: string; mediaId: string } | undefined {
  const match = /^t\/(ten_[0-9A-Z]+)\/w\/(wks_[0-9A-Z]+)\/m\/(med_[0-9A-Z]+)$/.exec(key);
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  return { tenantId: match[1], workspaceId: match[2], mediaId: match[3] };
}
