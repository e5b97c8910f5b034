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

/** Largest file per kind (API.md "Media"). */
export const MAX_BYTES_BY_KIND: Readonly<Record<MediaKind, number>> = {
  image: 20 * 1024 * 1024,
  video: 1024 * 1024 * 1024,
  document: 100 * 1024 * 1024,
};

/** How long an upload URL works (API.md: 15 minutes). */
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
}

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
