import { POST_TYPES_OF_PLATFORM } from '../networks/definitions.js';
import type { Platform } from './platforms.js';
import type { PostType } from './post-shape.js';

// The post types themselves are part of a post's shape, which the networks' rules read too.
export { POST_TYPES, type PostType } from './post-shape.js';

/** Each platform's post types, as its definition lists them (shared/networks/<net>/definition.ts). */
export const POST_TYPES_BY_PLATFORM: Readonly<Record<Platform, readonly PostType[]>> = POST_TYPES_OF_PLATFORM;
