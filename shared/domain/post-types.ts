import { POST_TYPES_OF_PLATFORM } from '../networks/definitions.js';
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

/** Each platform's post types, as its definition lists them (shared/networks/<net>/definition.ts). */
export const POST_TYPES_BY_PLATFORM: Readonly<Record<Platform, readonly PostType[]>> = POST_TYPES_OF_PLATFORM;

// A definition cannot import this file (the domain imports the definitions): a post type it lists
// that is none of POST_TYPES fails the build here instead.
type UndeclaredPostType = Exclude<(typeof POST_TYPES_OF_PLATFORM)[Platform][number], PostType>;
const everyPostTypeDeclared: [UndeclaredPostType] extends [never] ? true : UndeclaredPostType = true;
void everyPostTypeDeclared;
