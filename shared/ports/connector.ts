import type { Media } from '../domain/media.js';
import type { Post } from '../domain/posts.js';
import type { PublishFailureKind } from '../domain/retry-policy.js';
import type { Account } from '../domain/tenancy.js';

/** One media item as the connector receives it. */
export interface DeliveryMedia {
  kind: 'image' | 'video' | 'document';
  /** Pre-uploaded media: its stored record (bytes in the media bucket). */
  stored?: Media;
  /** URL media, fetched and stored before the call (the media capability). */
  url?: string;
  alt?: string;
}

export interface PublishRequest {
  post: Post;
  account: Account;
  /** 1 for the first try; the connector may use it (the sandbox does, for its failure modes). */
  attempt: number;
  /** Stable for the post: lets a network (or the sandbox) tell a repeat of a post it already has. */
  clientReference: string;
  media: DeliveryMedia[];
  /**
   * Aborted when the worker stops waiting (its time-out, or it lost its claim on the post). The
   * connector passes it to every request it makes, so nothing keeps running after the worker has
   * moved on; it then answers `unknown` (or rejects), unless it knows the network never had the post.
   */
  signal: AbortSignal;
}

export type { PublishFailureKind };

/**
 * How a publish call ended, as far as the connector knows:
 * - `published`: the network accepted the post;
 * - `failed`: the network did NOT publish it, for certain: it answered with an error (a 4xx, a 5xx,
 *   a rate limit), or the request never left (connection refused, a DNS failure);
 * - `unknown`: the request may have reached the network and no answer says what became of it
 *   (a time-out or a connection reset after the request was sent, an abort). The worker never
 *   retries this blindly: it asks `findPublished` first.
 * A connector that throws is treated as `unknown` too.
 */
export type PublishOutcome =
  | { kind: 'published'; platformPostId: string; platformPostUrl: string }
  | {
      kind: 'failed';
      failure: PublishFailureKind;
      /** A stable code, e.g. RATE_LIMITED, MEDIA_TOO_LARGE, PLATFORM_ERROR, DUPLICATE_CONTENT. */
      code: string;
      message: string;
      platformRawCode?: string;
      retryAfterSeconds?: number;
    }
  | {
      kind: 'unknown';
      /** A stable code, e.g. PLATFORM_TIMEOUT, CONNECTION_RESET. */
      code: string;
      message: string;
    };

/** What the network says about a post made under a client reference. */
export type LookupOutcome =
  | { kind: 'found'; platformPostId: string; platformPostUrl: string }
  /** The network answered, and it does not have the post. */
  | { kind: 'not_found' }
  /** No answer that settles it (the look-up failed or timed out, or the network cannot look up). */
  | { kind: 'unknown'; message: string };

export interface Connector {
  publish(request: PublishRequest): Promise<PublishOutcome>;
  /**
   * Whether the network already has the post made under this reference: after an `unknown`
   * outcome or a worker that died mid-call, this decides between "published" and "try again"
   * without posting twice. Absent when the network cannot look a post up (then such a post fails
   * with `delivery_uncertain` rather than risk a second post). Honours `signal` like `publish`.
   */
  findPublished?(account: Account, clientReference: string, signal: AbortSignal): Promise<LookupOutcome>;
}
