import type { Account } from '../../domain/tenancy.js';
import type { DeliveryMedia, PublishOutcome } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import type { Lease } from './claim.js';
import { CONNECTOR_TIMEOUT_MS, type DeliveryDeps } from './delivery-deps.js';
import type { Verdict } from './verdict.js';

/** The worker stopped waiting for the network (its time-out). */
export class ConnectorTimeoutError extends Error {
  constructor(ms: number) {
    super(`The network did not answer within ${Math.round(ms / 1000)} s.`);
    this.name = 'ConnectorTimeoutError';
  }
}

/**
 * Step 5, publish: the account's connector, called with an abort signal. At the time-out (or
 * when the claim is lost) the signal is aborted and the worker stops waiting; whatever the call
 * still does, the outcome is `unknown` and the settle step looks the post up rather than try
 * again. A connector that throws is `unknown` too: it cannot be known whether the request left.
 */
export function makePublish(
  deps: Pick<DeliveryDeps, 'connectorFor' | 'clock' | 'metrics' | 'connectorTimeoutMs'>,
) {
  const timeoutMs = deps.connectorTimeoutMs ?? CONNECTOR_TIMEOUT_MS;

  return async function publish(
    lease: Lease,
    account: Account,
    media: DeliveryMedia[],
    log: Logger,
  ): Promise<Verdict> {
    const connector = deps.connectorFor(account);
    if (!connector) {
      return {
        kind: 'fail',
        error: {
          origin: 'service',
          code: 'connector_unavailable',
          message: `No connector is configured for ${account.platform} on this deployment.`,
          retryable: true,
        },
      };
    }
    const post = lease.post;
    if (lease.claimedFrom === 'scheduled' && post.scheduledAt) {
      deps.metrics.milliseconds('ScheduledStartDelay', deps.clock.now() - Date.parse(post.scheduledAt), {
        platform: post.platform,
      });
    }

    const call = new AbortController();
    const stopWaiting = () => call.abort(lease.lost.reason);
    lease.lost.addEventListener('abort', stopWaiting, { once: true });
    const timer = setTimeout(() => call.abort(new ConnectorTimeoutError(timeoutMs)), timeoutMs);
    const gaveUp = new Promise<PublishOutcome>((resolve) => {
      call.signal.addEventListener('abort', () => resolve(unknownAfter(call.signal.reason)), { once: true });
    });
    try {
      const answer = connector
        .publish({
          post,
          account,
          attempt: lease.attempt,
          clientReference: post.postId,
          media,
          signal: call.signal,
        })
        .catch((error: unknown): PublishOutcome => {
          log.warn('the connector threw; the outcome is unknown', { error });
          return unknownAfter(call.signal.aborted ? call.signal.reason : error);
        });
      const outcome = await Promise.race([answer, gaveUp]);
      if (outcome.kind === 'published') return outcome;
      if (outcome.kind === 'unknown') {
        log.warn('the network call ended without an answer', { code: outcome.code });
        return { kind: 'unknown', origin: 'platform', code: outcome.code, message: outcome.message };
      }
      if (outcome.kind === 'pending') {
        // Interim until the worker re-queues pending posts: checked again like a transient failure.
        return {
          kind: 'failure',
          origin: 'platform',
          facts: {
            failure: 'transient',
            code: 'PLATFORM_PROCESSING',
            message: 'The network is still processing the post.',
          },
        };
      }
      const { kind: _failed, progress: _progress, ...facts } = outcome;
      return { kind: 'failure', origin: 'platform', facts };
    } finally {
      clearTimeout(timer);
      lease.lost.removeEventListener('abort', stopWaiting);
    }
  };
}

function unknownAfter(reason: unknown): PublishOutcome {
  if (reason instanceof ConnectorTimeoutError) {
    return { kind: 'unknown', code: 'PLATFORM_TIMEOUT', message: reason.message };
  }
  return {
    kind: 'unknown',
    code: 'PLATFORM_NO_ANSWER',
    message: 'The network call ended without an answer.',
  };
}
