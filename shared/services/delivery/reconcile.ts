import { MAX_QUEUE_DELAY_SECONDS } from '../../domain/delivery-effects.js';
import type { Post } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';
import type { AccessCredentials } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import type { DeliveryMessage, MessageQueue } from '../../ports/queues.js';
import { makeAccountCredentials } from '../accounts/account-credentials.js';
import type { DeliveryDeps } from './delivery-deps.js';
import { deliveryMessageOf } from './delivery-message.js';
import { makeSettle, type SettleDeps } from './settle.js';
import type { Held } from './verdict.js';
import { makeWriteIfUnchanged } from './write-if-unchanged.js';

/** A queued or scheduled post this late has lost its message (a restart, a dead-letter): re-drive it. */
export const STUCK_AFTER_MS = 2 * 60 * 1000;
const BATCH = 100;

export type ReconcileDeps = SettleDeps &
  Pick<DeliveryDeps, 'secrets' | 'networks' | 'metrics'> & { deliveryQueue: MessageQueue<DeliveryMessage> };

export interface ReconcileOptions {
  /**
   * The delivery queue's messages were all lost (the local host's in-memory queue, after a
   * restart): re-send at once a message for every post due within the queue's longest delay,
   * delayed to its time, instead of waiting until a post is two minutes overdue.
   */
  messagesLost?: boolean;
  /** The invocation's logger (the Lambda's ids); the deps' logger otherwise. */
  logger?: Logger;
}

export interface ReconcileReport {
  redriven: number;
  /** Held by a dead worker, not on the network: queued again. */
  leasesRecovered: number;
  /** Held by a dead worker, and the network has it: published. */
  foundPublished: number;
  /** Held by a dead worker, and the network cannot tell: failed with delivery_uncertain. */
  failedUncertain: number;
  /** Held by a dead worker, not on the network, and out of attempts: failed. */
  failedExhausted: number;
}

/** Why a post taken back from a dead worker is queued again (shown on the post while it waits). */
const INTERRUPTED = {
  origin: 'service',
  code: 'delivery_interrupted',
  message:
    'The worker delivering the post stopped before the network answered, and the network does not have the post.',
} as const;

/**
 * The safety net, run every minute (and, on the local host, at start):
 * 1. publishing past its lease (the worker died; a live one renews its lease): settled the way the
 *    worker settles an unknown outcome (settle.ts): published if the network has the post, queued
 *    again if it has not, failed with delivery_uncertain (retryable) if it cannot tell;
 * 2. queued or scheduled well past due (the message was lost): the message is sent again; the
 *    worker's conditional claim makes a duplicate harmless.
 */
export function makeReconciler(deps: ReconcileDeps) {
  const write = makeWriteIfUnchanged(deps);
  const settle = makeSettle(deps);
  const accountCredentials = makeAccountCredentials(deps);

  /** A real network's look-up needs the account's access token (renewed if it is expiring). */
  const credentialsFor = async (account: Account, log: Logger): Promise<AccessCredentials | undefined> => {
    if (account.sandbox) return undefined;
    const outcome = await accountCredentials(account, { signal: new AbortController().signal }, log);
    return outcome.kind === 'ready' ? { accessToken: outcome.tokens.accessToken } : undefined;
  };

  const recoverLease = async (post: Post, report: ReconcileReport, logger: Logger) => {
    const log = logger.with({
      tenantId: post.tenantId,
      workspaceId: post.workspaceId,
      postId: post.postId,
      attempt: post.attempts,
    });
    log.warn('taking back a post whose worker stopped renewing its lease', {
      leaseUntil: post.delivery?.leaseUntil,
    });
    const account = await deps.tenancy.getAccount(post.tenantId, post.workspaceId, post.accountId);
    const credentials = account && (await credentialsFor(account, log));
    const held: Held = {
      post,
      settle: async (change) => (await write(post, change(post))) !== undefined,
    };
    const result = await settle(
      held,
      { kind: 'unknown', ...INTERRUPTED },
      { account, log, requeueAs: 'lease_expired', ...(credentials && { credentials }) },
    );
    if (result === 'published') report.foundPublished++;
    else if (result === 'retrying') report.leasesRecovered++;
    else if (result === 'uncertain') report.failedUncertain++;
    else if (result === 'failed') report.failedExhausted++;
  };

  const dueAt = (post: Post) =>
    Date.parse(
      (post.status === 'scheduled' ? post.scheduledAt : post.delivery?.nextAttemptAt) ?? post.updatedAt,
    );

  return async function reconcile(options: ReconcileOptions = {}): Promise<ReconcileReport> {
    const logger = options.logger ?? deps.logger;
    const report: ReconcileReport = {
      redriven: 0,
      leasesRecovered: 0,
      foundPublished: 0,
      failedUncertain: 0,
      failedExhausted: 0,
    };
    const now = deps.clock.now();
    for (const post of await deps.posts.listOverdue('publishing', new Date(now).toISOString(), BATCH)) {
      await recoverLease(post, report, logger);
    }
    const dueBefore = options.messagesLost ? now + MAX_QUEUE_DELAY_SECONDS * 1000 : now - STUCK_AFTER_MS;
    for (const status of ['queued', 'scheduled'] as const) {
      for (const post of await deps.posts.listOverdue(status, new Date(dueBefore).toISOString(), BATCH)) {
        const delaySeconds = Math.max(0, Math.ceil((dueAt(post) - now) / 1000));
        await deps.deliveryQueue.send(deliveryMessageOf(post), {
          delaySeconds: Math.min(MAX_QUEUE_DELAY_SECONDS, delaySeconds),
        });
        report.redriven++;
      }
    }
    const acted = Object.values(report).some((count) => count > 0);
    if (acted) logger.info('reconciled', { ...report });
    else logger.debug('reconciled: nothing to do');
    return report;
  };
}
