import type { NextWebhookAttempt } from '../../domain/webhooks/retry-schedule.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { Metrics } from '../../ports/metrics.js';
import type { MessageQueue } from '../../ports/queues.js';
import type { SecretCipher } from '../../ports/secret-cipher.js';
import type { WebhookSender } from '../../ports/webhook-sender.js';
import type { DeliveryLog, WebhookRegistry } from '../../ports/webhook-store.js';
import type { WebhookDispatchMessage } from './dispatch-message.js';

/** When the attempt after a failed one is due: `nextWebhookAttempt`'s signature. */
export type WebhookRetryPlan = (
  attemptNumber: number,
  firstAttemptAtMs: number,
  nowMs: number,
  random: () => number,
) => NextWebhookAttempt;

/** What the dispatcher works with. */
export interface DispatchDeps {
  webhooks: Pick<DeliveryLog, 'getDelivery' | 'recordAttempt'> &
    Pick<WebhookRegistry, 'getWebhookForDelivery' | 'recordDeliveryOutcome'>;
  secrets: SecretCipher;
  /** The webhook-delivery queue: retries and early messages go back on it, with a delay. */
  webhookQueue: MessageQueue<WebhookDispatchMessage>;
  sendWebhook: WebhookSender;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  /** The service's version, for the User-Agent (package.json `version`). */
  version: string;
  /** Jitter of the retry schedule; Math.random by default (tests fix it). */
  random?: () => number;
  /** `nextWebhookAttempt` (about 24 h) by default; the local host's tests pass a short one. */
  retryPlan?: WebhookRetryPlan;
}

/** How one dispatch message ended. */
export type DispatchResult =
  /** The receiver took it (2xx, whole response in time). */
  | 'succeeded'
  /** The attempt failed; the next one is queued. */
  | 'retrying'
  /** The attempt failed and was the last: the delivery is failed. */
  | 'failed'
  /** Not due yet: the message went back on the queue with the time that remains (at most 900 s). */
  | 'held'
  /** Nothing to do: no such delivery, already finished, a stale message, a deleted webhook, a lost race. */
  | 'dropped';
