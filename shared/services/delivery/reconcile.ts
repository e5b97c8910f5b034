import { nextStatus } from '../../domain/post-lifecycle.js';
import type { Post } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';
import type { Clock } from '../../ports/clock.js';
import type { Connector } from '../../ports/connector.js';
import type { PostStore } from '../../ports/post-store.js';
import type { DeliveryMessage, MessageQueue } from '../../ports/queues.js';
import type { TenancyStore } from '../../ports/tenancy-store.js';
import { makeWriteIfUnchanged } from './write-if-unchanged.js';

/** A queued or scheduled post this late has lost its message (a restart, a dead-letter): re-drive it. */
export const STUCK_AFTER_MS = 2 * 60 * 1000;
const BATCH = 100;

export interface ReconcileDeps {
  posts: PostStore;
  tenancy: TenancyStore;
  deliveryQueue: MessageQueue<DeliveryMessage>;
  connectorFor(account: Account): Connector | undefined;
  clock: Clock;
}

export interface ReconcileReport {
  redriven: number;
  leasesRecovered: number;
  foundPublished: number;
  failedUncertain: number;
}

/**
 * The safety net, run every minute:
 * 1. publishing past its lease (the worker died): if the network has the post, it is published;
 *    if the network says it has not, it goes back to queued for another attempt; if the network
 *    cannot tell, it fails (retryable) rather than risk posting twice;
 * 2. queued or scheduled well past due (the message was lost): the message is sent again;
 *    the worker's conditional claim makes a duplicate harmless.
 */
export function makeReconciler(deps: ReconcileDeps) {
  const nowIso = () => new Date(deps.clock.now()).toISOString();
  const message = (post: Post): DeliveryMessage => ({
    tenantId: post.tenantId,
    workspaceId: post.workspaceId,
    postId: post.postId,
  });

  const write = makeWriteIfUnchanged(deps);

  const recoverLease = async (post: Post, report: ReconcileReport) => {
    const account = await deps.tenancy.getAccount(post.tenantId, post.workspaceId, post.accountId);
    const connector = account ? deps.connectorFor(account) : undefined;
    const found =
      account && connector?.findPublished ? await connector.findPublished(account, post.postId) : undefined;
    if (found) {
      if (
        await write(post, {
          ...post,
          status: nextStatus(
            post.status,
            { type: 'succeed' },
            { requireApproval: false, scheduledAtAhead: false },
          ),
          publishedAt: nowIso(),
          platformPostId: found.platformPostId,
          platformPostUrl: found.platformPostUrl,
          delivery: {},
        })
      ) {
        report.foundPublished++;
      }
      return;
    }
    if (connector?.findPublished) {
      const requeued = await write(post, {
        ...post,
        status: nextStatus(
          post.status,
          { type: 'lease_expired' },
          { requireApproval: false, scheduledAtAhead: false },
        ),
        delivery: { nextAttemptAt: nowIso() },
      });
      if (requeued) report.leasesRecovered++;
      return;
    }
    const failed = await write(post, {
      ...post,
      status: nextStatus(post.status, { type: 'fail' }, { requireApproval: false, scheduledAtAhead: false }),
      error: {
        origin: 'service',
        code: 'delivery_uncertain',
        message:
          'The delivery was interrupted and the network cannot say whether it received the post. Check the account before posting again.',
        retryable: true,
      },
      delivery: {},
    });
    if (failed) report.failedUncertain++;
  };

  return async function reconcile(): Promise<ReconcileReport> {
    const report: ReconcileReport = {
      redriven: 0,
      leasesRecovered: 0,
      foundPublished: 0,
      failedUncertain: 0,
    };
    const now = deps.clock.now();
    for (const post of await deps.posts.listOverdue('publishing', new Date(now).toISOString(), BATCH)) {
      await recoverLease(post, report);
    }
    const stuckBefore = new Date(now - STUCK_AFTER_MS).toISOString();
    for (const status of ['queued', 'scheduled'] as const) {
      for (const post of await deps.posts.listOverdue(status, stuckBefore, BATCH)) {
        await deps.deliveryQueue.send(message(post));
        report.redriven++;
      }
    }
    return report;
  };
}
