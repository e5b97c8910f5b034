import { Duration } from 'aws-cdk-lib';
import { WEBHOOK_TIMEOUT_MS } from '../../shared/adapters/http/webhook-sender.js';
import { REFRESH_TIMEOUT_MS } from '../../shared/services/accounts/account-credentials.js';
import { CONNECTOR_TIMEOUT_MS, LOOKUP_TIMEOUT_MS } from '../../shared/services/delivery/deliver-post.js';

/**
 * How long each background function may run, in one place: the queues' visibility timeouts are
 * derived from these (see `visibilityTimeoutFor`), so a consumer and its queue cannot drift apart.
 */
export const WORKER_TIMEOUTS = {
  /** One stream batch: a few SendMessage / Scheduler calls per record, sequentially. */
  outbox: Duration.seconds(60),
  /**
   * The worst message: a token refresh (15 s), a publish (60 s), the network refusing the token, a
   * forced refresh (15 s) and the publish again (60 s), then the look-up after no answer (10 s),
   * with room for the reads and writes around them. The claim's lease is renewed while the worker
   * runs, so it need not outlast this: a worker stopped at its time-out stops renewing, and the
   * reconciler takes the post back once the lease (20 s) ends.
   */
  deliveryWorker: Duration.millis(
    2 * REFRESH_TIMEOUT_MS + 2 * CONNECTOR_TIMEOUT_MS + LOOKUP_TIMEOUT_MS + 20_000,
  ),
  /** Up to 100 expired leases and 200 re-drives; it runs again a minute later anyway. */
  reconciler: Duration.seconds(60),
  /** One import: a fetch capped at 60 s, then the PutObject of up to 1 GiB. */
  mediaImporter: Duration.seconds(120),
  /** One notification: a GetItem, a HeadObject and an UpdateItem per record. */
  mediaUploaded: Duration.seconds(30),
  /**
   * One batch of up to 10 events, handled at once: one BatchWriteItem of the events to the feed,
   * one Query of each workspace's webhooks and, per event and subscribed webhook (25 at most), a
   * PutItem and a SendMessage.
   */
  webhookFanOut: Duration.seconds(30),
  /**
   * One batch of up to 10 delivery attempts, handled at once: each a few reads, a KMS Decrypt, a
   * POST cut at 5 s (WEBHOOK_TIMEOUT_MS) and a few writes, so a batch takes about 6 s at worst.
   */
  webhookDispatcher: Duration.seconds(30),
  /**
   * The daily sweep of tokens expiring within a week: one refresh (a network call) and one
   * conditional write per account, one account at a time. Lambda's longest run; the sweep stops
   * taking accounts a minute before it ends (SWEEP_STOP_MARGIN_MS), and an account it did not reach
   * is taken by the next day's run, or refreshed at delivery time.
   */
  tokenRefresher: Duration.minutes(15),
} as const;

if (WORKER_TIMEOUTS.deliveryWorker.toMilliseconds() <= CONNECTOR_TIMEOUT_MS + LOOKUP_TIMEOUT_MS) {
  throw new Error('The delivery worker must outlast the connector time-out and the look-up after it.');
}
if (WORKER_TIMEOUTS.webhookDispatcher.toMilliseconds() <= 2 * WEBHOOK_TIMEOUT_MS) {
  throw new Error('The webhook dispatcher must outlast an attempt (5 s) with room for the calls around it.');
}

/**
 * AWS's advice for a queue that feeds a Lambda function: a visibility timeout of at least six times
 * the function's timeout, so a message is not handed out again while a throttled or retried
 * invocation may still be working on it.
 */
export function visibilityTimeoutFor(consumerTimeout: Duration): Duration {
  return Duration.seconds(consumerTimeout.toSeconds() * 6);
}
