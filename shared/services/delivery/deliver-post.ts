import { traceIdOf } from '../../domain/trace-header.js';
import type { AccessCredentials } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import type { DeliveryMessage } from '../../ports/queues.js';
import { makeCollectPostMetrics } from '../metrics/collect-post-metrics.js';
import { videoDurationFailure } from './check-video-durations.js';
import { makeClaim } from './claim.js';
import type { DeliveryDeps, DeliveryResult } from './delivery-deps.js';
import { makeFollowUpPostId } from './follow-up-post-id.js';
import { makeHoldUntilDue } from './hold-until-due.js';
import { makePublishAsAccount } from './publish-as-account.js';
import { makePublishFirstComment } from './publish-first-comment.js';
import { makeReserveQuota } from './reserve-quota.js';
import { makeResolveMedia } from './resolve-media.js';
import { makeSettle } from './settle.js';
import type { Verdict } from './verdict.js';

export {
  CONNECTOR_TIMEOUT_MS,
  type DeliveryDeps,
  type DeliveryResult,
  LEASE_MS,
  LOOKUP_TIMEOUT_MS,
} from './delivery-deps.js';

/**
 * Deliver one post (docs/delivery.md "The worker"):
 * 1. hold until due: drop what is not scheduled or queued; hold what is early; a published post
 *    whose network id is still to come is looked up instead (follow-up-post-id.ts), one whose first
 *    comment is due has it made (publish-first-comment.ts), and one whose metrics collection is due
 *    has its metrics collected (services/metrics/), nothing else;
 * 2. claim: → publishing with a lease, renewed while the worker works; a lost race drops the message;
 * 3. reserve quota: the account must be connected, and today's cost fit its ceiling;
 * 4. resolve media: stored media must exist; URL media is fetched and stored; every video whose
 *    duration is known must fit the network's limit (else the post fails, the network uncalled);
 *    then credentials: a real network's access token, refreshed first when it expires soon;
 * 5. publish: the connector, with an abort signal and a time-out (once more after a refused token);
 * 6. settle: published, queued again (a retry, or a check while the network processes the post),
 *    or failed; an unknown outcome is looked up on the network.
 * The quota reservation is given back unless the network has (or may have) the post, or the post
 * went back to the queue holding it (the network is processing it).
 */
export function makeDeliverPost(deps: DeliveryDeps) {
  const holdUntilDue = makeHoldUntilDue(deps);
  const claim = makeClaim(deps);
  const reserveQuota = makeReserveQuota(deps);
  const resolveMedia = makeResolveMedia(deps);
  const publishAsAccount = makePublishAsAccount(deps);
  const settle = makeSettle(deps);
  const followUpPostId = makeFollowUpPostId(deps);
  const collectPostMetrics = makeCollectPostMetrics(deps);
  const publishFirstComment = makePublishFirstComment(deps);

  return async function deliverPost(
    message: DeliveryMessage,
    logger: Logger = deps.logger,
  ): Promise<DeliveryResult> {
    const { tenantId, workspaceId, postId } = message;
    // The API request's trace id (docs/operating.md "Traces"): its lines are found from the request's.
    const requestTraceId = traceIdOf(message.trace);
    const messageLog = logger.with({
      tenantId,
      workspaceId,
      postId,
      ...(requestTraceId && { requestTraceId }),
    });

    const due = await holdUntilDue(message, messageLog);
    if (due.kind === 'follow_up') {
      await followUpPostId(due.post, messageLog);
      return 'followed_up';
    }
    if (due.kind === 'comment') {
      await publishFirstComment(due.post, messageLog);
      return 'comment';
    }
    if (due.kind === 'collect_metrics') {
      await collectPostMetrics(due.post, messageLog);
      return 'metrics_collected';
    }
    if (due.kind !== 'due') return due.kind;
    const log = messageLog.with({ attempt: due.post.attempts + 1 });
    const lease = await claim(due.post, log);
    if (!lease) return 'dropped';
    try {
      const reserved = await reserveQuota(lease.post, due.context);
      if ('settle' in reserved)
        return await settle(lease, reserved.settle, { account: undefined, log, requeueAs: 'retry' });
      const { account, context, day, release } = reserved.proceed;
      let verdict: Verdict | undefined;
      let result: DeliveryResult = 'dropped';
      try {
        const media = await resolveMedia.content(lease.post, context);
        let credentials: AccessCredentials | undefined;
        if ('settle' in media) verdict = media.settle;
        // A video the network would refuse for its length: failed here, before any upload.
        else verdict = videoDurationFailure(lease.post, media.proceed.items);
        // A claim lost while media was fetched belongs to the reconciler now: no network call.
        if (!verdict && 'proceed' in media && !lease.lost.aborted) {
          ({ verdict, credentials } = await publishAsAccount(lease, account, media.proceed, log));
        }
        if (verdict) {
          result = await settle(lease, verdict, {
            account,
            log,
            requeueAs: 'retry',
            quotaDay: day,
            ...(credentials && { credentials }),
          });
        }
        return result;
      } finally {
        // A draft in the creator's inbox counts against the day too: TikTok has it.
        const networkHasIt =
          verdict?.kind === 'published' ||
          verdict?.kind === 'awaiting_creator' ||
          result === 'published' ||
          result === 'awaiting_creator' ||
          result === 'uncertain';
        const stillHeld = lease.post.delivery?.quotaDay !== undefined;
        if (!networkHasIt && !stillHeld) await release();
      }
    } finally {
      await lease.end();
    }
  };
}
