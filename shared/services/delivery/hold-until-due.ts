import { MAX_QUEUE_DELAY_SECONDS } from '../../domain/delivery-effects.js';
import type { Post } from '../../domain/posts.js';
import type { Logger } from '../../ports/logger.js';
import type { DeliveryMessage } from '../../ports/queues.js';
import type { DeliveryDeps } from './delivery-deps.js';

/** Early by at most this much, the worker waits in place instead of re-queueing. */
export const WAIT_IN_PLACE_MS = 1000;

export type Due = { kind: 'due'; post: Post } | { kind: 'held' } | { kind: 'dropped' };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Step 1, hold until due: read the post fresh. Anything but scheduled or queued is a duplicate or
 * late message: dropped. Not due yet: within a second, wait in place; within the queue's longest
 * delay, put the message back with a delay; further off, drop it (a schedule of its own fires it).
 */
export function makeHoldUntilDue(deps: Pick<DeliveryDeps, 'posts' | 'deliveryQueue' | 'clock' | 'sleep'>) {
  const sleep = deps.sleep ?? defaultSleep;
  return async function holdUntilDue(message: DeliveryMessage, log: Logger): Promise<Due> {
    const post = await deps.posts.get(message.tenantId, message.workspaceId, message.postId);
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
      const delaySeconds = Math.floor(early / 1000);
      await deps.deliveryQueue.send(message, { delaySeconds });
      log.debug('delivery held until due', { delaySeconds });
      return { kind: 'held' };
    }
    if (early > 0) await sleep(early);
    return { kind: 'due', post };
  };
}
