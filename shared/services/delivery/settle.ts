import { commentDueOnPublish } from '../../domain/first-comment.js';
import { startCollection } from '../../domain/metrics-schedule.js';
import { decideAfterPending } from '../../domain/pending-policy.js';
import { POST_ID_PENDING, POST_ID_UNAVAILABLE, startFollowUp } from '../../domain/post-id-follow-up.js';
import { type DeliveryEventType, nextDeliveryStatus } from '../../domain/post-lifecycle.js';
import type { DeliveryState, Post, PostError, PostWarning } from '../../domain/posts.js';
import { DEFAULT_RETRY_POLICY, decideAfterFailure, type FailureFacts } from '../../domain/retry-policy.js';
import type { Account } from '../../domain/tenancy.js';
import type { AccessCredentials, PublishedPost } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import { makeHasMetricsReader } from '../metrics/collects-metrics.js';
import type { DeliveryDeps, DeliveryResult } from './delivery-deps.js';
import { makeLookUp } from './look-up.js';
import { decodeProgress, encodeProgress } from './progress.js';
import type { Held, Verdict } from './verdict.js';

export type SettleDeps = Pick<
  DeliveryDeps,
  | 'posts'
  | 'tenancy'
  | 'connectorFor'
  | 'clock'
  | 'logger'
  | 'metrics'
  | 'random'
  | 'retryPolicy'
  | 'lookupTimeoutMs'
>;

export interface SettleContext {
  /** The post's account, when known: the connector to look the post up with. */
  account: Account | undefined;
  /** The account's access token, for a look-up on a real network. */
  credentials?: AccessCredentials;
  /** The day of this delivery's quota reservation: a post the network is processing keeps it. */
  quotaDay?: string;
  log: Logger;
  /**
   * The lifecycle event that puts the post back in the queue: `retry` after a failed attempt (the
   * worker), `lease_expired` after a worker died (the reconciler).
   */
  requeueAs: Extract<DeliveryEventType, 'retry' | 'lease_expired'>;
}

export const DELIVERY_UNCERTAIN_MESSAGE =
  'The delivery was interrupted and the network cannot say whether it received the post. Check the account before posting again.';

/**
 * Step 6, settle: write what a delivery found out, each status through the lifecycle table, with
 * the one conditional write of the held post (lost to someone else: dropped, nothing written).
 * - published: published, with the network's id and URL, and any warnings the connector gave; or,
 *   when the network names the post only later, without them, PLATFORM_POST_ID_PENDING on it and a
 *   follow-up (`delivery.postIdFollowUp`) the worker acts on (follow-up-post-id.ts); a named post
 *   whose network has a metrics reader gets its first metrics collection (`metrics.collection`,
 *   domain/metrics-schedule.ts; the workspace's setting is checked when it comes);
 * - awaiting_creator: the network took the post as a draft in the creator's inbox (TikTok): final,
 *   with no platform id, no metrics collection and the first comment left waiting (nothing to
 *   comment on yet); the quota reservation is kept, since the network has the post;
 * - fail: failed at once with that error;
 * - failure (it certainly did not publish): queued again while the retry policy allows, else failed;
 *   a revoked authorisation also disconnects the account;
 * - pending (the network is processing it): queued again for a check after the network's wait,
 *   keeping its progress and its quota reservation, up to the pending limit (pending-policy.ts);
 * - unknown (it may have published): the network is asked whether it has the post. Found:
 *   published, without posting again (or awaiting_creator, found as a draft in the creator's inbox).
 *   Not found: a failed attempt as above. The network cannot
 *   tell: failed with delivery_uncertain (retryable) rather than risk posting twice.
 * The worker settles its unknown outcomes here, and the reconciler the posts of workers that died:
 * one rule for both. Whatever goes back to the queue keeps what the network already has of the post
 * (`delivery.progress`, the pending count, the held quota day); a settled post keeps none of it.
 */
export function makeSettle(deps: SettleDeps) {
  const lookUp = makeLookUp(deps);
  const hasMetricsReader = makeHasMetricsReader(deps);
  const nowIso = () => new Date(deps.clock.now()).toISOString();

  const published = async (held: Held, found: PublishedPost, context: SettleContext) => {
    const log = context.log;
    const now = deps.clock.now();
    const named = 'platformPostId' in found ? found : undefined;
    // A post the network named is read on the metrics schedule where its network has a reader; the
    // workspace's setting is checked at each collection (no read of it on the publish path).
    const metrics =
      named && hasMetricsReader(context.account)
        ? { readings: [], collection: startCollection(new Date(now).toISOString()) }
        : undefined;
    const progress = 'idToCome' in found ? encodeProgress(found.idToCome.progress) : undefined;
    const followUp =
      'idToCome' in found && progress !== undefined && progress !== 'too_large'
        ? startFollowUp(progress, found.idToCome.checkAfterSeconds, now)
        : undefined;
    // Progress too large to keep (a connector bug) leaves nothing to ask with: said so at once.
    const idWarning = followUp ? POST_ID_PENDING : named ? undefined : POST_ID_UNAVAILABLE;
    const warnings = [...(found.warnings ?? []), ...(idWarning ? [idWarning] : [])];
    const done = await held.settle((post) => {
      const {
        error: _lastFailure,
        warnings: _earlier,
        platformPostId: _id,
        platformPostUrl: _url,
        ...rest
      } = post;
      return {
        ...rest,
        status: nextDeliveryStatus(post.status, 'succeed'),
        publishedAt: new Date(now).toISOString(),
        ...(named && { platformPostId: named.platformPostId, platformPostUrl: named.platformPostUrl }),
        ...(warnings.length > 0 && { warnings }),
        delivery: { ...lastAttempt(post), ...(followUp && { postIdFollowUp: followUp }) },
        ...(metrics && { metrics }),
        // Its first comment is due once the network has named the post (docs/first-comment.md).
        ...(named &&
          post.firstComment && { firstComment: commentDueOnPublish(post, new Date(now).toISOString()) }),
      };
    });
    if (!done) return dropped(log);
    deps.metrics.count('PostsPublished', { platform: held.post.platform });
    log.info('post published', {
      ...(named ? { platformPostId: named.platformPostId } : { postIdToCome: true }),
      ...(warnings.length > 0 && { warnings: warnings.map((w) => w.code) }),
    });
    return 'published' as const;
  };

  const awaitingCreator = async (
    held: Held,
    warnings: readonly PostWarning[] | undefined,
    log: Logger,
  ): Promise<DeliveryResult> => {
    const done = await held.settle((post) => {
      const { error: _lastFailure, warnings: _earlier, ...rest } = post;
      return {
        ...rest,
        status: nextDeliveryStatus(post.status, 'hand_over'),
        ...(warnings && warnings.length > 0 && { warnings: [...warnings] }),
        delivery: lastAttempt(post),
      };
    });
    if (!done) return dropped(log);
    deps.metrics.count('PostsAwaitingCreator', { platform: held.post.platform });
    log.info("post delivered to the creator's inbox", {
      ...(warnings && warnings.length > 0 && { warnings: warnings.map((w) => w.code) }),
    });
    return 'awaiting_creator';
  };

  const failed = async (held: Held, error: PostError, log: Logger): Promise<DeliveryResult> => {
    const done = await held.settle((post) => ({
      ...post,
      status: nextDeliveryStatus(post.status, 'fail'),
      error,
      delivery: lastAttempt(post),
    }));
    if (!done) return dropped(log);
    deps.metrics.count('PostsFailed', { platform: held.post.platform, code: error.code });
    log.warn('post failed', { code: error.code, origin: error.origin, retryable: error.retryable });
    return error.code === 'delivery_uncertain' ? 'uncertain' : 'failed';
  };

  const failure = async (
    held: Held,
    origin: PostError['origin'],
    facts: FailureFacts,
    context: SettleContext,
    progress: string | undefined,
  ): Promise<DeliveryResult> => {
    const post = held.post;
    if (facts.failure === 'auth_revoked') {
      await deps.tenancy.markAccountDisconnected(post.tenantId, post.workspaceId, post.accountId, {
        at: nowIso(),
        reason: facts.message,
      });
    }
    const decision = decideAfterFailure(
      facts,
      {
        attempt: post.attempts,
        now: deps.clock.now(),
        ...(post.delivery?.rateLimitedSince && { rateLimitedSince: post.delivery.rateLimitedSince }),
      },
      deps.random,
      deps.retryPolicy ?? DEFAULT_RETRY_POLICY,
    );
    if (decision.kind === 'fail') return failed(held, { ...decision.error, origin }, context.log);
    const nextAttemptAt = new Date(deps.clock.now() + decision.delaySeconds * 1000).toISOString();
    const done = await held.settle((current) => ({
      ...current,
      status: nextDeliveryStatus(current.status, context.requeueAs),
      error: {
        origin,
        code: facts.code,
        message: facts.message,
        retryable: true,
        ...(facts.platformRawCode && { platformRawCode: facts.platformRawCode }),
      },
      delivery: {
        nextAttemptAt,
        ...(decision.rateLimitedSince && { rateLimitedSince: decision.rateLimitedSince }),
        ...lastAttempt(current),
        ...carried(current, progress),
      },
    }));
    if (!done) return dropped(context.log);
    context.log.info('post queued for another attempt', { code: facts.code, nextAttemptAt });
    return 'retrying';
  };

  const pending = async (
    held: Held,
    verdict: Extract<Verdict, { kind: 'pending' }>,
    context: SettleContext,
  ): Promise<DeliveryResult> => {
    const decision = decideAfterPending(held.post.delivery?.pending, verdict, deps.clock.now());
    if (decision.kind === 'fail') return failed(held, decision.error, context.log);
    const nextAttemptAt = new Date(deps.clock.now() + decision.delaySeconds * 1000).toISOString();
    const done = await held.settle((current) => {
      const { error: _previous, ...rest } = current;
      const quotaDay = current.delivery?.quotaDay ?? context.quotaDay;
      return {
        ...rest,
        status: nextDeliveryStatus(current.status, context.requeueAs),
        delivery: {
          nextAttemptAt,
          ...lastAttempt(current),
          progress: verdict.progress,
          pending: decision.pending,
          ...(quotaDay && { quotaDay }),
        },
      };
    });
    if (!done) return dropped(context.log);
    context.log.info('post queued for a check while the network processes it', {
      stage: verdict.stage,
      checks: decision.pending.checks,
      nextAttemptAt,
    });
    return 'pending';
  };

  return async function settle(
    held: Held,
    verdict: Verdict,
    context: SettleContext,
  ): Promise<DeliveryResult> {
    if (held.lost?.aborted) return dropped(context.log);
    switch (verdict.kind) {
      case 'published':
        return published(held, verdict, context);
      case 'fail':
        return failed(held, verdict.error, context.log);
      case 'failure':
        return failure(held, verdict.origin, verdict.facts, context, verdict.progress);
      case 'pending':
        return pending(held, verdict, context);
      case 'awaiting_creator':
        return awaitingCreator(held, verdict.warnings, context.log);
      case 'unknown': {
        const progress = decodeProgress(verdict.progress ?? held.post.delivery?.progress);
        const found = await lookUp(
          {
            account: context.account,
            post: held.post,
            ...(context.credentials && { credentials: context.credentials }),
            ...(progress && { progress }),
          },
          context.log,
        );
        if (held.lost?.aborted) return dropped(context.log);
        if (found.kind === 'found') return published(held, found, context);
        if (found.kind === 'found_without_id') {
          const { progress, checkAfterSeconds } = found;
          return published(held, { idToCome: { progress, checkAfterSeconds } }, context);
        }
        if (found.kind === 'found_awaiting_creator') {
          return awaitingCreator(held, found.warnings, context.log);
        }
        if (found.kind === 'not_found') {
          const facts: FailureFacts = { failure: 'transient', code: verdict.code, message: verdict.message };
          return failure(held, verdict.origin, facts, context, verdict.progress);
        }
        return failed(
          held,
          {
            origin: 'service',
            code: 'delivery_uncertain',
            message: DELIVERY_UNCERTAIN_MESSAGE,
            retryable: true,
          },
          context.log,
        );
      }
    }
  };
}

/**
 * What a post queued again for a retry keeps of the network's work: the newest progress (the
 * verdict's, else the one it had), the pending count (the next claim is a new attempt, not a
 * check), and the quota day it holds.
 */
function carried(post: Post, progress: string | undefined): DeliveryState {
  const { pending, quotaDay } = post.delivery ?? {};
  const kept = progress ?? post.delivery?.progress;
  return {
    ...(kept && { progress: kept }),
    ...(pending && { pending: { ...pending, checkDue: false } }),
    ...(quotaDay && { quotaDay }),
  };
}

/** A settled post keeps only when it was last tried. */
function lastAttempt(post: Post): DeliveryState {
  return post.delivery?.lastAttemptAt ? { lastAttemptAt: post.delivery.lastAttemptAt } : {};
}

function dropped(log: Logger): 'dropped' {
  log.info('outcome dropped: the post was changed by someone else meanwhile');
  return 'dropped';
}
