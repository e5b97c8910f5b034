import type { Post, PostError, PostWarning } from '../../domain/posts.js';
import type { FailureFacts } from '../../domain/retry-policy.js';
import type { PublishedPost } from '../../ports/connector.js';

/**
 * What a step of the delivery found out, for the settle step to write. `progress` is what the
 * network has done of the post so far, as JSON text (progress.ts): kept on the post for the next
 * attempt and for a look-up; absent means "as before".
 */
export type Verdict =
  | ({ kind: 'published' } & PublishedPost)
  /** The post fails now, whatever the retry policy says (the service refused it). */
  | { kind: 'fail'; error: PostError }
  /** A failed attempt that certainly did not publish: the retry policy decides what comes next. */
  | { kind: 'failure'; origin: PostError['origin']; facts: FailureFacts; progress?: string }
  /** The network may or may not have the post: it is looked up before anything else happens. */
  | { kind: 'unknown'; origin: PostError['origin']; code: string; message: string; progress?: string }
  /** The network is processing the post: checked again after `checkAfterSeconds` (pending-policy.ts). */
  | { kind: 'pending'; progress: string; checkAfterSeconds: number; stage: string }
  /** The network took the post as a draft in the creator's inbox: final, awaiting_creator. */
  | { kind: 'awaiting_creator'; warnings?: PostWarning[] };

/** A step either hands its result to the next step or ends the delivery with a verdict. */
export type StepResult<T> = { proceed: T } | { settle: Verdict };

/** A post a delivery holds, and the one write that settles it. */
export interface Held {
  /** The post as held now. */
  readonly post: Post;
  /** Aborted once the hold is lost (someone else changed the post): nothing is written then. */
  readonly lost?: AbortSignal;
  /**
   * Writes `change(post)` in place of the held post if nobody else changed it meanwhile; false when
   * someone did. The hold ends with it.
   */
  settle(change: (post: Post) => Post): Promise<boolean>;
}
