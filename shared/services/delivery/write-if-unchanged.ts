import { ConflictError } from '../../domain/errors.js';
import type { Post } from '../../domain/posts.js';
import type { Clock } from '../../ports/clock.js';
import type { PostStore } from '../../ports/post-store.js';

/**
 * The delivery side's write: `next` replaces `current` only if nobody changed the post since it was
 * read (its version). Answers the post as stored (next version, new updatedAt), or undefined when
 * someone changed it first: a worker or the reconciler then drops its work rather than fight over
 * the post.
 */
export function makeWriteIfUnchanged(deps: { posts: PostStore; clock: Clock }) {
  return async (current: Post, next: Post): Promise<Post | undefined> => {
    const stored = {
      ...next,
      version: current.version + 1,
      updatedAt: new Date(deps.clock.now()).toISOString(),
    };
    try {
      await deps.posts.update(stored, current.version);
      return stored;
    } catch (error) {
      if (error instanceof ConflictError) return undefined;
      throw error;
    }
  };
}
