import { ConflictError } from '../../domain/errors.js';
import type { Post } from '../../domain/posts.js';
import type { Clock } from '../../ports/clock.js';
import type { PostStore } from '../../ports/post-store.js';

/**
 * The delivery side's write: `next` replaces `current` only if nobody changed the post since it was
 * read (its version). False when someone did: a worker or the reconciler then drops its work rather
 * than fight over the post.
 */
export function makeWriteIfUnchanged(deps: { posts: PostStore; clock: Clock }) {
  return async (current: Post, next: Post): Promise<boolean> => {
    try {
      await deps.posts.update(
        { ...next, version: current.version + 1, updatedAt: new Date(deps.clock.now()).toISOString() },
        current.version,
      );
      return true;
    } catch (error) {
      if (error instanceof ConflictError) return false;
      throw error;
    }
  };
}
