import { POST_TYPES_OF_PLATFORM } from '../networks/definitions.js';
import type { Platform } from './platforms.js';
import type { PostType } from './post-shape.js';

// The post types themselves are part of a post's shape, which the networks' rules read too.
export { POST_TYPES, type PostType } from './post-shape.js';

/** Each platform's post types, as its definition lists them (shared/networks/<net>/definition.ts). */
export const POST_TYPES_BY_PLATFORM: Readonly<Record<Platform, readonly PostType[]>> = POST_TYPES_OF_PLATFORM;

// A definition cannot import this file (the domain imports the definitions): a post type it lists
// that is none of POST_TYPES fails the build here instead.
type UndeclaredPostType = Exclude<(typeof POST_TYPES_OF_PLATFORM)[Platform][number], PostType>;
const everyPostTypeDeclared: [UndeclaredPostType] extends [never] ? true : UndeclaredPostType = true;
void everyPostTypeDeclared;
