import type { NetworkQuotaReading } from '../../domain/account-quotas.js';
import type { Account } from '../../domain/tenancy.js';
import type { AccessCredentials, PublishOutcome } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import type { Lease } from './claim.js';
import { CONNECTOR_TIMEOUT_MS, type DeliveryDeps } from './delivery-deps.js';
import { decodeProgress, encodeProgress, MAX_PROGRESS_BYTES } from './progress.js';
import type { ResolvedMedia } from './resolve-media.js';
import type { Verdict } from './verdict.js';

export { ABORT_GRACE_MS, ConnectorTimeoutError } from './call-with-deadline.js';

import { callWithDeadline, deadlineOutcome } from './call-with-deadline.js';

/** The account to publish as, with its access token for a real network (none for the sandbox). */
export interface Authorised {
  account: Account;
  credentials?: AccessCredentials;
}

/**
 * Step 5, publish: the account's connector, called with an abort signal, the account's access
 * token, the media's bytes, and what earlier attempts finished (`progress`, the post's unless
 * given). At the time-out (or when the claim is lost) the signal is aborted and the worker stops
 * waiting; whatever the call still does, the outcome is `unknown` and the settle step looks the
 * post up rather than try again. A connector that throws is `unknown` too: it cannot be known
 * whether the request left. Progress the connector hands back comes with the verdict, as JSON text.
 */
export function makePublish(
  deps: Pick<DeliveryDeps, 'connectorFor' | 'bytes' | 'mediaUrls' | 'connectorTimeoutMs'> &
    Partial<Pick<DeliveryDeps, 'quotas' | 'linkPreview'>>,
) {
  const timeoutMs = deps.connectorTimeoutMs ?? CONNECTOR_TIMEOUT_MS;

  return async function publish(
    lease: Lease,
    authorised: Authorised,
    media: ResolvedMedia,
    log: Logger,
    progressText: string | undefined = lease.post.delivery?.progress,
  ): Promise<Verdict> {
    const { account, credentials } = authorised;
    const quotas = deps.quotas;
    const connector = deps.connectorFor(account);
    if (!connector) return connectorUnavailable(account);
    const post = lease.post;
    const progress = decodeProgress(progressText);

    const outcome = await callWithDeadline<PublishOutcome>(
      timeoutMs,
      (signal) =>
        connector.publish({
          post,
          account,
          attempt: lease.attempt,
          clientReference: post.postId,
          media: media.items,
          ...(media.linkThumbnail && { linkThumbnail: media.linkThumbnail }),
          ...(media.optionMedia && { optionMedia: media.optionMedia }),
          ...(deps.linkPreview && { linkPreview: deps.linkPreview }),
          bytes: deps.bytes,
          ...(deps.mediaUrls && { mediaUrls: deps.mediaUrls }),
          signal,
          ...(quotas && {
            recordQuota: (reading: NetworkQuotaReading) =>
              quotas.recordNetworkReading(account.accountId, reading).catch((error: unknown) => {
                log.warn('the network quota reading was not kept', { error });
              }),
          }),
          ...(credentials && { credentials }),
          ...(progress && { progress }),
        }),
      deadlineOutcome,
      log,
      lease.lost,
    );
    return toVerdict(outcome, log);
  };
}

/** The account's network has no connector on this deployment: retryable, once one is configured. */
export function connectorUnavailable(account: Account): Verdict {
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

function toVerdict(outcome: PublishOutcome, log: Logger): Verdict {
  if (outcome.kind === 'published') return outcome;
  if (outcome.kind === 'awaiting_creator') {
    return { kind: 'awaiting_creator', ...(outcome.warnings && { warnings: outcome.warnings }) };
  }
  if (outcome.kind === 'published_without_id') {
    const { progress, checkAfterSeconds, warnings } = outcome;
    return { kind: 'published', idToCome: { progress, checkAfterSeconds }, ...(warnings && { warnings }) };
  }
  const progress = outcome.progress && encodeProgress(outcome.progress);
  if (progress === 'too_large') return progressTooLarge(log);
  const kept = progress ? { progress } : {};
  switch (outcome.kind) {
    case 'unknown':
      log.warn('the network call ended without an answer', { code: outcome.code });
      return { kind: 'unknown', origin: 'platform', code: outcome.code, message: outcome.message, ...kept };
    case 'pending':
      log.info('the network is processing the post', {
        stage: outcome.stage,
        checkAfterSeconds: outcome.checkAfterSeconds,
      });
      return {
        kind: 'pending',
        progress: progress ?? '{}',
        checkAfterSeconds: outcome.checkAfterSeconds,
        stage: outcome.stage,
      };
    case 'failed': {
      const { kind: _failed, progress: _progress, ...facts } = outcome;
      return { kind: 'failure', origin: 'platform', facts, ...kept };
    }
  }
}

/**
 * A connector bug: more progress than a post may keep. The post stops here rather than go on
 * without a record of what the network already has (which could post part of it twice).
 */
function progressTooLarge(log: Logger): Verdict {
  log.error('the connector returned more progress than a post may keep', { limitBytes: MAX_PROGRESS_BYTES });
  return {
    kind: 'fail',
    error: {
      origin: 'service',
      code: 'connector_progress_too_large',
      message:
        'The connector kept more publishing progress than the service can store; the post was stopped rather than risk publishing part of it twice.',
      retryable: false,
    },
  };
}
