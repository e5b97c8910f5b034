import {
  ALIGNED_ARRIVAL_MS,
  MAX_QUEUE_DELAY_SECONDS,
  WAIT_IN_PLACE_MS,
} from '../../domain/delivery-effects.js';
import { commentWake } from '../../domain/first-comment.js';
import { METRICS_EARLY_READ_MS } from '../../domain/metrics-schedule.js';
import type { Post } from '../../domain/posts.js';
import type { Logger } from '../../ports/logger.js';
import type { PostContext } from '../../ports/post-store.js';
import type { DeliveryMessage } from '../../ports/queues.js';
import type { DeliveryDeps } from './delivery-deps.js';
import { messageMatches } from './delivery-message.js';

export type Due =
  /** `context`: the account and media read with the post, when the message named the right ones. */
  | { kind: 'due'; post: Post; context?: PostContext }
  /** A published post whose network id is still to come, due for a look-up. */
  | { kind: 'follow_up'; post: Post }
  /** A published post whose first comment is due (docs/first-comment.md). */
  | { kind: 'comment'; post: Post }
  /** A published post whose metrics collection is due (metrics-schedule.ts). */
  | { kind: 'collect_metrics'; post: Post }
  | { kind: 'held' }
  | { kind: 'dropped' };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Step 1, hold until due: read the post fresh (with its account and media in the same round trip
 * when the message names them; see delivery-message.ts). A published post whose id is still to
 * come is due for its look-up at `nextCheckAt`, one whose first comment is due (or held by a worker
 * that may have died) at the comment's `nextAttemptAt`, and one whose metrics are collected for its next
 * collection at `metrics.collection.nextCollectAt` (each held until then like any other, but a
 * collection read up to METRICS_EARLY_READ_MS early, as its schedule aims a minute early). Anything else but
 * scheduled or queued is a duplicate or late message: dropped. Not due yet: within WAIT_IN_PLACE_MS, wait in place; within the queue's
 * longest delay, put the message back, aligned: wait until whole seconds plus ALIGNED_ARRIVAL_MS
 * remain and send it delayed by those seconds, so that the messages of posts sharing one time,
 * whenever they came, arrive together just before it and fill few batches (docs/delivery.md
 * "Bursts"); further off, drop it (a schedule of its own fires it).
 */
export function makeHoldUntilDue(deps: Pick<DeliveryDeps, 'posts' | 'deliveryQueue' | 'clock' | 'sleep'>) {
  const sleep = deps.sleep ?? defaultSleep;
  return async function holdUntilDue(message: DeliveryMessage, log: Logger): Promise<Due> {
    const { post, context } = await read(message);
    const followUp = post?.status === 'published' ? post.delivery?.postIdFollowUp : undefined;
    const collection = post?.status === 'published' ? post.metrics?.collection : undefined;
    const commentAt = post && commentWake(post);
    const wake = followUp
      ? { at: followUp.nextCheckAt, kind: 'follow_up' as const, readEarlyMs: WAIT_IN_PLACE_MS }
      : commentAt
        ? { at: commentAt, kind: 'comment' as const, readEarlyMs: WAIT_IN_PLACE_MS }
        : collection && {
            at: collection.nextCollectAt,
            kind: 'collect_metrics' as const,
            readEarlyMs: METRICS_EARLY_READ_MS,
          };
    if (post && wake) {
      const early = Date.parse(wake.at) - deps.clock.now();
      if (early > wake.readEarlyMs) {
        if (early > MAX_QUEUE_DELAY_SECONDS * 1000) return { kind: 'dropped' };
        await deps.deliveryQueue.send(message, { delaySeconds: Math.ceil(early / 1000) });
        return { kind: 'held' };
      }
      return { kind: wake.kind, post };
    }
    if (!post || (post.status !== 'scheduled' && post.status !== 'queued')) {
      log.debug('delivery message dropped: the post is not waiting for delivery', {
        status: post?.status ?? 'missing',
      });
      return { kind: 'dropped' };
    }
    const dueIso = post.status === 'scheduled' ? post.scheduledAt : post.delivery?.nextAttemptAt;
    const early = dueIso ? Date.parse(dueIso) - deps.clock.now() : 0;
    if (early > WAIT_IN_PLACE_MS) {
      if (early > MAX_QUEUE_DELAY_SECONDS * 1000) return { kind: 'dropped' };
      // At least a second, as early exceeds WAIT_IN_PLACE_MS (a second plus the margin).
      const delaySeconds = Math.floor((early - ALIGNED_ARRIVAL_MS) / 1000);
      await sleep(early - ALIGNED_ARRIVAL_MS - delaySeconds * 1000);
      await deps.deliveryQueue.send(message, { delaySeconds });
      log.debug('delivery held until due', { delaySeconds });
      return { kind: 'held' };
    }
    if (early > 0) {
      await sleep(early);
      // The account is read again after the wait, as it would have been without the hint.
      return { kind: 'due', post };
    }
    return { kind: 'due', post, ...(context && messageMatches(message, post) && { context }) };
  };

  async function read(message: DeliveryMessage): Promise<{ post?: Post; context?: PostContext }> {
    const { tenantId, workspaceId, postId, accountId, mediaIds } = message;
    if (accountId === undefined || mediaIds === undefined)
      return { post: await deps.posts.get(tenantId, workspaceId, postId) };
    return deps.posts.getForDelivery(tenantId, workspaceId, postId, accountId, mediaIds);
  }
}
