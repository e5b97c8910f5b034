import type { Platform } from './platforms.js';

/** docs/api-decisions.md#platforms-and-post-types. */
export const POST_TYPES = [
  'text',
  'image',
  'video',
  'thread',
  'carousel',
  'document',
  'reel',
  'story',
  'short',
] as const;
export type PostType = (typeof POST_TYPES)[number];

export const POST_TYPES_BY_PLATFORM: Readonly<Record<Platform, readonly PostType[]>> = {
  twitter: ['text', 'image', 'video', 'thread'],
  linkedin: ['text', 'image', 'video', 'document', 'carousel'],
  instagram: ['image', 'carousel', 'reel', 'story'],
  tiktok: ['video', 'carousel'],
  youtube: ['video', 'short'],
};
