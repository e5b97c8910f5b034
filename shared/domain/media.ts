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

export type MediaStatus = 'pending' | 'uploaded';

/** A pre-uploaded media item of a workspace (the upload flow itself comes with the media capability). */
export interface Media {
  mediaId: string;
  tenantId: string;
  workspaceId: string;
  filename: string;
  mimeType: string;
  sizeBytes: number;
  status: MediaStatus;
  createdAt: string;
  uploadedAt?: string;
}
