import type { PostMetricsState } from './metrics.js';
import type { PlatformOptions } from './platform-options.js';
import type { Platform } from './platforms.js';
import type {
  ContentItem,
  FirstCommentShape,
  LinkShape,
  MediaRef,
  PostShape,
  PostType,
} from './post-shape.js';

// Kept in files of their own so the networks' rules and options (which the definitions hold, and
// this file derives from) can use them without importing this file; re-exported here, where the
// rest of the code looks for them.
export {
  type ContentItem,
  contentItems,
  type FirstCommentShape,
  type LinkShape,
  MEDIA_KINDS,
  type MediaKind,
  type MediaKindLookup,
  type MediaRef,
  type UserTag,
} from './post-shape.js';
export { POST_TYPES, POST_TYPES_BY_PLATFORM, type PostType } from './post-types.js';
export type { RuleViolation } from './rule-violation.js';

/** What a caller asks for on create: deliver now, at scheduledAt, or keep as a draft. */
export const REQUESTED_STATUSES = ['publish', 'scheduled', 'draft'] as const;
export type RequestedStatus = (typeof REQUESTED_STATUSES)[number];

/** Stored statuses (docs/api-decisions.md#post-lifecycle). */
export const POST_STATUSES = [
  'draft',
  'pending_approval',
  'scheduled',
  'queued',
  'publishing',
  'published',
  'failed',
  'cancelled',
  'rejected',
  /** Delivered as a draft to the creator's TikTok inbox; they finish and post it in the app. */
  'awaiting_creator',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** What the platform rules and policies look at: the post as it would be published. */
export type PostDraft = PostShape<Platform, PlatformOptions>;

export interface ApprovalRecord {
  status: 'pending' | 'approved' | 'rejected';
  requestedAt: string;
  decidedAt?: string;
  /** Agent id of the reviewer. */
  decidedBy?: string;
  reason?: string;
}

/** What the delivery worker keeps on a post between attempts. */
export interface DeliveryState {
  /** Set while publishing: the worker holding the post, and until when its claim lasts. */
  leaseId?: string;
  leaseUntil?: string;
  /** The earliest time of the next attempt, while queued for a retry. */
  nextAttemptAt?: string;
  /** When the network first rate-limited this post; retries stop about 15 minutes later. */
  rateLimitedSince?: string;
  lastAttemptAt?: string;
  /**
   * What earlier attempts finished at the network (the connector's progress: media uploaded, thread
   * items posted), as JSON text, handed back to the next attempt and to a look-up. Text, so any JSON
   * a connector returns round-trips through the table unchanged. Gone once the post is settled.
   */
  progress?: string;
  /** Set from the network's first `pending` answer until the post is settled. */
  pending?: PendingState;
  /** A published post whose network id is still to come: when to ask the network again. */
  postIdFollowUp?: PostIdFollowUp;
  /**
   * The day (YYYY-MM-DD, UTC) whose quota this post holds: kept across re-queues once the network
   * is processing the post, so a check neither reserves again nor gives the reservation back.
   */
  quotaDay?: string;
}

/**
 * A published post the network has not named yet (TikTok's moderation): the worker asks the network
 * again at `nextCheckAt`, on a growing schedule (post-id-follow-up.ts).
 */
export interface PostIdFollowUp {
  /** The connector's progress (JSON text) its look-up asks with. */
  progress: string;
  /** Look-ups made so far. */
  checks: number;
  /** When the post was published without its id (ISO 8601). */
  since: string;
  nextCheckAt: string;
}

/** A post the network is processing (docs/delivery.md "Pending: processed at the network"). */
export interface PendingState {
  /** How many `pending` answers so far. */
  checks: number;
  /** The first `pending` answer (ISO 8601). */
  since: string;
  /** What the network said it is doing, for the logs (e.g. `media_processing`). */
  stage: string;
  /**
   * The post is queued for a check of the same attempt (not a new attempt): its claim does not
   * count one. False once a failure queued it again for a retry.
   */
  checkDue: boolean;
}

/**
 * Something true of a published post that its caller should know beside its id (docs/delivery.md
 * "A post id that comes later, and warnings on a published post"): a stable `code`, and human text.
 */
export interface PostWarning {
  code: string;
  message: string;
}

export interface PostError {
  origin: 'platform' | 'service';
  code: string;
  message: string;
  platformRawCode?: string;
  retryable: boolean;
}

/**
 * Where a post's first comment is (docs/first-comment.md):
 * - `waiting`: the post is not published (yet); the comment is made only once it is;
 * - `queued`: due now or at `nextAttemptAt` (its first try, a retry, a check while the network processes it);
 * - `publishing`: a worker is making it, until `leaseUntil`;
 * - `published`: the network has it (`platformCommentId`);
 * - `failed`: the network refused it, or its retries ran out (`error`); the post stays published;
 * - `uncertain`: a call ended without an answer and the network cannot say whether it has the
 *   comment: never tried again, as posting it twice is worse (`error`).
 */
export const FIRST_COMMENT_STATUSES = [
  'waiting',
  'queued',
  'publishing',
  'published',
  'failed',
  'uncertain',
] as const;
export type FirstCommentStatus = (typeof FIRST_COMMENT_STATUSES)[number];

/** A post's first comment as stored: what the caller gave, and how its delivery went. */
export interface FirstComment extends FirstCommentShape {
  status: FirstCommentStatus;
  /** Calls made so far (a check while the network processes it is not one). */
  attempts: number;
  platformCommentId?: string;
  platformCommentUrl?: string;
  publishedAt?: string;
  error?: PostError;
  /** When its first call began (ISO 8601): a look-up searches from then. */
  startedAt?: string;
  /** While queued: when it is due. While publishing: when a worker that died is given up on. */
  nextAttemptAt?: string;
  /** The connector's progress for it (JSON text), as `DeliveryState.progress` is for the post. */
  progress?: string;
  /** Checks while the network processes it. */
  pendingChecks?: number;
}

export interface Post {
  postId: string;
  tenantId: string;
  workspaceId: string;
  accountId: string;
  platform: Platform;
  postType: PostType;
  status: PostStatus;
  content: string | ContentItem[];
  media: MediaRef[];
  scheduledAt?: string;
  /** The network's own settings (platform-options.ts); connectors read `platformOptions?.<platform>`. */
  platformOptions?: PlatformOptions;
  /** Made on the post once it is published (docs/first-comment.md). */
  firstComment?: FirstComment;
  /** A link card (post-shape.ts LinkShape). */
  link?: LinkShape;
  /** The caller's own id for the post (external-id.ts): listed by, never interpreted. */
  externalId?: string;
  createdAt: string;
  updatedAt: string;
  publishedAt?: string;
  platformPostId?: string;
  platformPostUrl?: string;
  /** What the caller should know of the published post (absent: nothing). */
  warnings?: PostWarning[];
  attempts: number;
  error?: PostError;
  approval?: ApprovalRecord;
  /** Who created it (agent id). */
  createdBy: string;
  /** Delivery bookkeeping (the worker's): */
  delivery?: DeliveryState;
  /**
   * The X-Ray trace header of the API request that last wrote the post (validated:
   * trace-header.ts). It goes with the post's delivery messages, so the worker's lines and its
   * network call name the request's trace (docs/operating.md "Traces"). Never in an answer.
   */
  trace?: string;
  /** How it did at the network, once published (docs/metrics.md): the metrics collection's. */
  metrics?: PostMetricsState;
  /** Optimistic-lock counter: every write increments it. */
  version: number;
}
