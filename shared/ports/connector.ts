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
}

export type { PublishFailureKind };

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
    };

export interface Connector {
  publish(request: PublishRequest): Promise<PublishOutcome>;
  /**
   * Whether the network already has the post made under this reference: after a worker died
   * mid-call, this decides between "published" and "try again" without posting twice. Undefined
   * when the network cannot tell.
   */
  findPublished?(
    account: Account,
    clientReference: string,
  ): Promise<{ platformPostId: string; platformPostUrl: string } | undefined>;
}
