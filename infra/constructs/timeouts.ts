import { Duration } from 'aws-cdk-lib';
import { CONNECTOR_TIMEOUT_MS, LEASE_MS } from '../../shared/services/delivery/deliver-post.js';

/**
 * How long each background function may run, in one place: the queues' visibility timeouts are
 * derived from these (see `visibilityTimeoutFor`), so a consumer and its queue cannot drift apart.
 */
export const WORKER_TIMEOUTS = {
  /** One stream batch: a few SendMessage / Scheduler calls per record, sequentially. */
  outbox: Duration.seconds(60),
  /**
   * The connector's own time-out (60 s) plus room for the reads and writes around it, and still
   * under the claim's lease (2 minutes): a worker that runs out of time is taken back by the
   * reconciler once the lease ends, never raced by it while still running.
   */
  deliveryWorker: Duration.millis(CONNECTOR_TIMEOUT_MS + 30_000),
  /** Up to 100 expired leases and 200 re-drives; it runs again a minute later anyway. */
  reconciler: Duration.seconds(60),
  /** One import: a fetch capped at 60 s, then the PutObject of up to 1 GiB. */
  mediaImporter: Duration.seconds(120),
  /** One notification: a GetItem, a HeadObject and an UpdateItem per record. */
  mediaUploaded: Duration.seconds(30),
  /**
   * The webhook dispatcher, which a later capability adds: 5 s per delivery attempt plus the reads
   * around it. Its queues are made now; the dispatcher must keep within this (or raise it here).
   */
  webhookDispatcher: Duration.seconds(30),
} as const;

if (WORKER_TIMEOUTS.deliveryWorker.toMilliseconds() >= LEASE_MS) {
  throw new Error('The delivery worker must time out before its lease (LEASE_MS) runs out.');
}

/**
 * AWS's advice for a queue that feeds a Lambda function: a visibility timeout of at least six times
 * the function's timeout, so a message is not handed out again while a throttled or retried
 * invocation may still be working on it.
 */
export function visibilityTimeoutFor(consumerTimeout: Duration): Duration {
  return Duration.seconds(consumerTimeout.toSeconds() * 6);
}
