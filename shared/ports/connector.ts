import type { NetworkQuotaReading } from '../domain/account-quotas.js';
import type { Media } from '../domain/media.js';
import type { AccountMetricValues, MetricsFailureKind, PostMetricValues } from '../domain/metrics.js';
import type { Post, PostWarning } from '../domain/posts.js';
import type { PublishFailureKind } from '../domain/retry-policy.js';
import type { Account } from '../domain/tenancy.js';
import type { MediaBytes } from './media-bytes.js';
import type { MediaUrls } from './media-urls.js';

/** One media item as the connector receives it. */
export interface DeliveryMedia {
  kind: 'image' | 'video' | 'document';
  /** Pre-uploaded media: its stored record (bytes in the media bucket). */
  stored?: Media;
  /** URL media, fetched and stored before the call (the media capability). */
  url?: string;
  alt?: string;
}

/**
 * What earlier attempts of this post finished at the network (uploaded media ids, the thread items
 * already posted, a container waiting to be processed): a small JSON object the connector returns
 * with `pending`, `failed` or `unknown`, the worker stores on the post, and hands back on the next
 * attempt, so nothing done is done twice across invocations. At most 8 KiB as JSON.
 */
export type PublishProgress = { readonly [key: string]: JsonValue };
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** The account's access token, decrypted for this call only (the worker refreshed it if it was expiring). */
export interface AccessCredentials {
  accessToken: string;
}

export interface PublishRequest {
  post: Post;
  account: Account;
  /** Absent for a sandbox account, which has no tokens. */
  credentials?: AccessCredentials;
  /** What earlier attempts finished; absent on the first. */
  progress?: PublishProgress;
  /** Reads stored media's bytes in chunks (never the whole file at once). */
  bytes?: MediaBytes;
  /**
   * Short-lived presigned GET URLs of stored media, for a network that fetches the media itself
   * (the photo network); absent where the deployment has no media bucket.
   */
  mediaUrls?: MediaUrls;
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
  /**
   * Keeps the network's own count of the account's posts when the connector reads it (Instagram's
   * publishing limit), for the account read. Best effort: it never throws, and a post does not
   * depend on it.
   */
  recordQuota?(reading: NetworkQuotaReading): Promise<void>;
  /**
   * Reads a page's card for a post's `link`, where the connector builds the card itself (its
   * definition's `linkPreview.card` is `ours`). Absent in tests that do not need it.
   */
  linkPreview?: LinkPreviewReader;
  /** The post's `link.thumbnail`, resolved like its media (stored first when given by URL). */
  linkThumbnail?: DeliveryMedia;
  /** The media the post's platformOptions reference (NetworkOptions.media), resolved, by name. */
  optionMedia?: Readonly<Record<string, DeliveryMedia>>;
}

export type { PublishFailureKind };

/**
 * A post the network published but names only later (TikTok, once moderation approves a public
 * post: sometimes hours): what the connector's `findPublished` needs to ask for its id again, and
 * when to ask first. The worker keeps asking on a growing schedule (docs/delivery.md "A post id
 * that comes later").
 */
export interface IdToCome {
  progress: PublishProgress;
  checkAfterSeconds: number;
}

/** Where a published post is at the network: named, or named later; with what its caller should know. */
export type PublishedPost = ({ platformPostId: string; platformPostUrl: string } | { idToCome: IdToCome }) & {
  warnings?: PostWarning[];
};

/**
 * How a publish call ended, as far as the connector knows:
 * - `published`: the network accepted the post (`warnings`: what its caller should know of it);
 * - `published_without_id`: it did, and names it only later (IdToCome);
 * - `failed`: the network did NOT publish it, for certain: it answered with an error (a 4xx, a 5xx,
 *   a rate limit), or the request never left (connection refused, a DNS failure);
 * - `unknown`: the request may have reached the network and no answer says what became of it
 *   (a time-out or a connection reset after the request was sent, an abort). The worker never
 *   retries this blindly: it asks `findPublished` first.
 * - `awaiting_creator`: handed over to the creator's inbox as a draft (below).
 * A connector that throws is treated as `unknown` too.
 */
export type PublishOutcome =
  | { kind: 'published'; platformPostId: string; platformPostUrl: string; warnings?: PostWarning[] }
  /** Published, its id still to come (IdToCome). */
  | ({ kind: 'published_without_id'; warnings?: PostWarning[] } & IdToCome)
  | {
      kind: 'failed';
      failure: PublishFailureKind;
      /** A stable code, e.g. RATE_LIMITED, MEDIA_TOO_LARGE, PLATFORM_ERROR, DUPLICATE_CONTENT. */
      code: string;
      message: string;
      platformRawCode?: string;
      retryAfterSeconds?: number;
      /** What is done at the network and must not be redone on a retry (a thread's first items). */
      progress?: PublishProgress;
    }
  | {
      kind: 'unknown';
      /** A stable code, e.g. PLATFORM_TIMEOUT, CONNECTION_RESET. */
      code: string;
      message: string;
      progress?: PublishProgress;
    }
  /**
   * The network is processing (a video transcoding, a container being prepared): the worker stores
   * `progress` on the post and queues it again after `checkAfterSeconds`, never sleeping in the
   * invocation, up to MAX_PENDING_CHECKS; the next attempt resumes from `progress`.
   */
  | {
      kind: 'pending';
      progress: PublishProgress;
      checkAfterSeconds: number;
      /** What the network is doing, for the logs (e.g. `media_processing`). */
      stage: string;
    }
  /**
   * The network took the post as a draft in the creator's own inbox (TikTok's upload to inbox):
   * nothing is public; the creator finishes and posts it in the network's app. Final for us (status
   * awaiting_creator, docs/post-lifecycle.md), with no platform id. `progress` is not kept (a
   * settled post keeps none). A post's outcome only: no comment ends so.
   */
  | { kind: 'awaiting_creator'; warnings?: PostWarning[]; progress?: PublishProgress };

/** What the network says about a post made under a client reference. */
export type LookupOutcome =
  | { kind: 'found'; platformPostId: string; platformPostUrl: string; warnings?: PostWarning[] }
  /** The network has the post and names it later (IdToCome). */
  | ({ kind: 'found_without_id' } & IdToCome)
  /** The network has it as a draft in the creator's inbox (see `awaiting_creator`). */
  | { kind: 'found_awaiting_creator'; warnings?: PostWarning[] }
  /** The network answered, and it does not have the post. */
  | { kind: 'not_found' }
  /** No answer that settles it (the look-up failed or timed out, or the network cannot look up). */
  | { kind: 'unknown'; message: string };

export interface LookupRequest {
  account: Account;
  credentials?: AccessCredentials;
  post: Post;
  clientReference: string;
  /** What the attempt whose outcome is unknown had finished, if it said. */
  progress?: PublishProgress;
  signal: AbortSignal;
}

/** A published post whose numbers are asked for. */
export interface MetricsTarget {
  postId: string;
  platformPostId: string;
  /** ISO 8601. */
  publishedAt: string;
  /**
   * The post's platformOptions, where the collection has them: what it was published as decides
   * how some networks read its numbers (LinkedIn: a Page's post is read through the Page's
   * statistics, a member's through the member's).
   */
  platformOptions?: Post['platformOptions'];
  /**
   * The post's texts (every part), as published: the sandbox reads its magic content from them
   * (docs/sandbox.md "Metrics"); a real network's reader has no use for them.
   */
  texts?: readonly string[];
}

/**
 * Read the numbers of several published posts of one account in as few calls as the network
 * allows (at most `metricsBatchSize` posts a request; the connector batches below that itself).
 */
export interface PostMetricsRequest {
  account: Account;
  credentials?: AccessCredentials;
  posts: readonly MetricsTarget[];
  signal: AbortSignal;
}

/** What the network said, per post, or why it said nothing for the whole request. */
export type PostMetricsAnswer =
  | {
      kind: 'metrics';
      /** By our postId; a post the network no longer has is in `notFound` instead. */
      byPost: Readonly<Record<string, PostMetricValues>>;
      notFound: readonly string[];
    }
  | {
      kind: 'failed';
      failure: Exclude<MetricsFailureKind, 'not_found'>;
      /** The permissions the network said are missing (`missing_scopes`). */
      missingScopes?: readonly string[];
      retryAfterSeconds?: number;
      /** Our words for the logs: never the network's raw body. */
      message: string;
    };

export interface AccountMetricsRequest {
  account: Account;
  credentials?: AccessCredentials;
  signal: AbortSignal;
}

export type AccountMetricsAnswer =
  | { kind: 'metrics'; metrics: AccountMetricValues }
  | Extract<PostMetricsAnswer, { kind: 'failed' }>;

/**
 * A post's first comment to make (docs/first-comment.md): the post is published and named; the
 * comment is a call of its own, with its own progress and attempts.
 */
export interface CommentRequest {
  /** The published post (its platformPostId names it at the network). */
  post: Post & { platformPostId: string };
  account: Account;
  credentials?: AccessCredentials;
  comment: { text: string; media: DeliveryMedia[] };
  /** What earlier attempts of this comment finished; absent on the first. */
  progress?: PublishProgress;
  bytes?: MediaBytes;
  mediaUrls?: MediaUrls;
  attempt: number;
  /** Stable for the comment: the post's reference with a suffix. */
  clientReference: string;
  signal: AbortSignal;
}

/**
 * How a comment call ended: as a publish (`published` names the comment in platformPostId and
 * platformPostUrl), never `published_without_id`, nor `awaiting_creator` (a post's outcome only: the
 * comment step fails a comment a connector answered so).
 */
export type CommentOutcome = Exclude<PublishOutcome, { kind: 'published_without_id' }>;

/** Whether the network has the comment an attempt with an unknown outcome made. */
export type CommentLookupOutcome = Exclude<
  LookupOutcome,
  { kind: 'found_without_id' | 'found_awaiting_creator' }
>;

export interface CommentLookupRequest {
  post: Post & { platformPostId: string };
  account: Account;
  credentials?: AccessCredentials;
  comment: { text: string };
  clientReference: string;
  progress?: PublishProgress;
  /** When the first attempt began (ISO 8601): a network that lists comments looks no earlier. */
  since: string;
  signal: AbortSignal;
}

/** A page's Open Graph card, read through the SSRF-safe fetcher (adapters/http/link-preview.ts). */
export interface LinkPreviewPage {
  title?: string;
  description?: string;
  /** og:image, absolute. */
  imageUrl?: string;
}

/** Reads link cards for connectors that build them (LinkedIn's article, Bluesky's external embed). */
export interface LinkPreviewReader {
  /** The page's card; undefined when it could not be read (the post goes on with what it has). */
  readPage(url: string, signal: AbortSignal): Promise<LinkPreviewPage | undefined>;
  /** An image's bytes, at most `maxBytes`; undefined when it could not be read or is larger. */
  readImage(
    url: string,
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<{ bytes: Uint8Array; contentType: string } | undefined>;
}

export interface Connector {
  publish(request: PublishRequest): Promise<PublishOutcome>;
  /**
   * How published posts did (docs/metrics.md): never on a request's path, only from the metrics
   * collection. Absent: the network gives no metrics (its posts' metrics answer a clear code).
   */
  readPostMetrics?(request: PostMetricsRequest): Promise<PostMetricsAnswer>;
  /** The account's own numbers (followers and what else the network gives cheaply). */
  readAccountMetrics?(request: AccountMetricsRequest): Promise<AccountMetricsAnswer>;
  /**
   * Whether the network already has the post made under this reference: after an `unknown`
   * outcome or a worker that died mid-call, this decides between "published" and "try again"
   * without posting twice. Absent when the network cannot look a post up (then such a post fails
   * with `delivery_uncertain` rather than risk a second post). Honours `signal` like `publish`.
   */
  findPublished?(request: LookupRequest): Promise<LookupOutcome>;
  /** Posts the first comment on a published post (docs/first-comment.md). Absent: the network takes none. */
  publishComment?(request: CommentRequest): Promise<CommentOutcome>;
  /**
   * Whether an attempt whose outcome is unknown made the comment. Absent, or `unknown`: the comment
   * ends `uncertain` and is never tried again (posting it twice is worse than not at all).
   */
  findComment?(request: CommentLookupRequest): Promise<CommentLookupOutcome>;
}
