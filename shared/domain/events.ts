import { createHash } from 'node:crypto';
import { encodeTime, TIME_LEN } from 'ulid';
import type { Post } from './posts.js';

/** Event names (interface section 6). */
export const EVENT_TYPES = [
  'post.queued',
  'post.scheduled',
  'post.published',
  'post.failed',
  'post.awaiting_creator',
  'approval.requested',
  'approval.decided',
  'account.disconnected',
  'post.metrics',
  'post.first_comment_published',
  'post.first_comment_failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The envelope of docs/api-decisions.md#webhooks; `tenantId` routes it and is never delivered. */
export interface ServiceEvent {
  /** `evt_…`, the same for every delivery of one state change. */
  id: string;
  type: EventType;
  createdAt: string;
  tenantId: string;
  workspaceId: string;
  data: Record<string, unknown>;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID-shaped id derived from the change itself (what changed, and to which version), so that
 * the stream consumer emits the same id however often it sees the same record.
 */
export function stableEventId(atMs: number, ...identity: string[]): string {
  const digest = createHash('sha256').update(identity.join('\n')).digest();
  let random = '';
  for (let i = 0; i < 26 - TIME_LEN; i++) random += CROCKFORD[(digest[i] ?? 0) % 32];
  return `evt_${encodeTime(atMs, TIME_LEN)}${random}`;
}

function postData(post: Post): Record<string, unknown> {
  return {
    postId: post.postId,
    status: post.status,
    platform: post.platform,
    accountId: post.accountId,
    ...(post.scheduledAt && { scheduledAt: post.scheduledAt }),
    ...(post.platformPostId && { platformPostId: post.platformPostId }),
    ...(post.platformPostUrl && { platformPostUrl: post.platformPostUrl }),
    ...(post.publishedAt && { publishedAt: post.publishedAt }),
    ...(post.warnings && post.warnings.length > 0 && { warnings: post.warnings }),
    ...(post.error && { error: post.error }),
  };
}

/**
 * The events one change of a post produces (docs/api-decisions.md#webhooks, payloads). A change
 * the caller cannot tell apart (a retry going back to queued, a claim of a queued post) produces none.
 *
 * A scheduled post comes due and is claimed in one write (scheduled → publishing: the lifecycle's
 * `due` then `claim`, docs/delivery.md), so the `queued` it passes through is never stored: that
 * write is its post.queued (interface section 3: a post that awaits delivery is queued), with the
 * status it passed through. The claim's time is later than scheduledAt and earlier than the outcome.
 */
export function postEvents(before: Post | undefined, after: Post): ServiceEvent[] {
  const events: ServiceEvent[] = [];
  const at = Date.parse(after.updatedAt);
  const make = (type: EventType, data: Record<string, unknown>): ServiceEvent => ({
    id: stableEventId(at, after.postId, String(after.version), type),
    type,
    createdAt: after.updatedAt,
    tenantId: after.tenantId,
    workspaceId: after.workspaceId,
    data,
  });
  const entered = (status: Post['status']) => after.status === status && before?.status !== status;
  const wasRetrying = before?.status === 'publishing';
  if (entered('queued') && !wasRetrying) events.push(make('post.queued', postData(after)));
  const cameDue = before?.status === 'scheduled' && after.status === 'publishing';
  if (cameDue) events.push(make('post.queued', { ...postData(after), status: 'queued' }));
  if (entered('scheduled') || (after.status === 'scheduled' && before?.scheduledAt !== after.scheduledAt)) {
    events.push(make('post.scheduled', postData(after)));
  }
  if (entered('published')) events.push(make('post.published', postData(after)));
  if (entered('failed')) events.push(make('post.failed', postData(after)));
  if (entered('awaiting_creator')) events.push(make('post.awaiting_creator', postData(after)));
  if (entered('pending_approval')) events.push(make('approval.requested', { postId: after.postId }));
  const decided = after.approval?.decidedAt && after.approval.decidedAt !== before?.approval?.decidedAt;
  if (decided && after.approval) {
    events.push(
      make('approval.decided', {
        postId: after.postId,
        decision: after.approval.status === 'approved' ? 'approved' : 'rejected',
        ...(after.approval.decidedBy && { reviewer: after.approval.decidedBy }),
        ...(after.approval.reason && { reason: after.approval.reason }),
      }),
    );
  }
  const comment = after.firstComment;
  const commentEntered = (statuses: readonly string[]) =>
    comment !== undefined &&
    statuses.includes(comment.status) &&
    before?.firstComment?.status !== comment.status;
  if (commentEntered(['published'])) {
    events.push(make('post.first_comment_published', commentData(after)));
  }
  if (commentEntered(['failed', 'uncertain'])) {
    events.push(make('post.first_comment_failed', commentData(after)));
  }
  const reading = metricsChange(before, after);
  if (reading) {
    events.push(
      make('post.metrics', {
        postId: after.postId,
        platform: after.platform,
        accountId: after.accountId,
        collectedAt: reading.collectedAt,
        metrics: reading.metrics,
      }),
    );
  }
  return events;
}

/** A first comment's event: the post it is on, and how the comment ended (docs/first-comment.md). */
function commentData(post: Post): Record<string, unknown> {
  const comment = post.firstComment;
  return {
    postId: post.postId,
    platform: post.platform,
    accountId: post.accountId,
    ...(post.platformPostId && { platformPostId: post.platformPostId }),
    firstComment: {
      status: comment?.status,
      attempts: comment?.attempts,
      ...(comment?.platformCommentId && { platformCommentId: comment.platformCommentId }),
      ...(comment?.platformCommentUrl && { platformCommentUrl: comment.platformCommentUrl }),
      ...(comment?.publishedAt && { publishedAt: comment.publishedAt }),
      ...(comment?.error && { error: comment.error }),
    },
  };
}

/**
 * The newest reading when a write changed the numbers (docs/metrics.md): a new reading whose
 * numbers differ from the one before it. A reading of the same numbers (a post nobody looked at
 * since) is stored but sends no event.
 */
function metricsChange(before: Post | undefined, after: Post) {
  const newest = after.metrics?.readings.at(-1);
  const previous = before?.metrics?.readings.at(-1);
  if (!newest || newest.collectedAt === previous?.collectedAt) return undefined;
  return sameNumbers(newest.metrics, previous?.metrics) ? undefined : newest;
}

function sameNumbers(a: Record<string, number>, b: Record<string, number> | undefined): boolean {
  if (!b) return Object.keys(a).length === 0;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}
