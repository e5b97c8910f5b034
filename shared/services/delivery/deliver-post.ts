import { randomUUID } from 'node:crypto';
import { DAILY_QUOTAS, quotaDay } from '../../domain/account-quotas.js';
import { mediaKindOf } from '../../domain/media.js';
import { nextStatus } from '../../domain/post-lifecycle.js';
import type { Post, PostError } from '../../domain/posts.js';
import {
  DEFAULT_RETRY_POLICY,
  decideAfterFailure,
  type FailureFacts,
  type RetryPolicy,
} from '../../domain/retry-policy.js';
import type { Account } from '../../domain/tenancy.js';
import type { AccountQuotas } from '../../ports/account-quotas.js';
import type { Clock } from '../../ports/clock.js';
import type { Connector, DeliveryMedia, PublishOutcome } from '../../ports/connector.js';
import { fetchFailureCode, type MediaFetcher } from '../../ports/media-fetcher.js';
import type { ObjectStorage } from '../../ports/object-storage.js';
import type { PostStore } from '../../ports/post-store.js';
import type { DeliveryMessage, MessageQueue } from '../../ports/queues.js';
import type { TenancyStore } from '../../ports/tenancy-store.js';
import { mediaRefsWithPaths, referencedMediaIds } from '../posts/post-checks.js';
import { makeSqsBatchHandler } from '../sqs-batch.js';
import { makeWriteIfUnchanged } from './write-if-unchanged.js';

/** How long a claim lasts; past it the reconciler takes the post back. */
export const LEASE_MS = 2 * 60 * 1000;
/** A network call that takes longer counts as a transient failure. */
export const CONNECTOR_TIMEOUT_MS = 60 * 1000;
/** Early by at most this much, the worker waits in place instead of re-queueing. */
const WAIT_IN_PLACE_MS = 1000;
const MAX_QUEUE_DELAY_SECONDS = 900;

export interface DeliveryDeps {
  posts: PostStore;
  quotas: AccountQuotas;
  storage: ObjectStorage;
  fetchMedia: MediaFetcher;
  tenancy: TenancyStore;
  deliveryQueue: MessageQueue<DeliveryMessage>;
  connectorFor(account: Account): Connector | undefined;
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Defaults: LEASE_MS and DEFAULT_RETRY_POLICY; the local host's tests shorten them. */
  leaseMs?: number;
  retryPolicy?: RetryPolicy;
}

export type DeliveryResult = 'published' | 'retrying' | 'failed' | 'held' | 'dropped';

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function makeDeliverPost(deps: DeliveryDeps) {
  const sleep = deps.sleep ?? defaultSleep;
  const nowIso = () => new Date(deps.clock.now()).toISOString();

  const write = makeWriteIfUnchanged(deps);

  const fail = (post: Post, error: PostError) =>
    write(post, { ...post, status: 'failed', error, delivery: { lastAttemptAt: nowIso() } });

  /**
   * Deliver one post:
   * 1. read it; anything but scheduled or queued is a duplicate or late message: drop it;
   * 2. not due yet: wait in place (≤ 1 s) or put the message back with a delay (≤ 15 min);
   * 3. claim it (→ publishing, with a lease) with a conditional write; losing the race: drop;
   * 4. check the account and media; call the network (with a time-out);
   * 5. write the outcome if the claim still holds: published, queued for a retry, or failed
   *    (a revoked token also disconnects the account).
   */
  return async function deliverPost(message: DeliveryMessage): Promise<DeliveryResult> {
    const post = await deps.posts.get(message.tenantId, message.workspaceId, message.postId);
    if (!post || (post.status !== 'scheduled' && post.status !== 'queued')) return 'dropped';

    const dueIso = post.status === 'scheduled' ? post.scheduledAt : post.delivery?.nextAttemptAt;
    const early = dueIso ? Date.parse(dueIso) - deps.clock.now() : 0;
    if (early > WAIT_IN_PLACE_MS) {
      // Far-off posts have a schedule of their own; only re-queue what a queue delay can reach.
      if (early > MAX_QUEUE_DELAY_SECONDS * 1000) return 'dropped';
      await deps.deliveryQueue.send(message, { delaySeconds: Math.floor(early / 1000) });
      return 'held';
    }
    if (early > 0) await sleep(early);

    const claimedStatus = nextStatus(
      post.status === 'scheduled'
        ? nextStatus(
            post.status,
            { type: 'due' },
            {
              requireApproval: false,
              scheduledAtAhead: false,
            },
          )
        : post.status,
      { type: 'claim' },
      { requireApproval: false, scheduledAtAhead: false },
    );
    const attempt = post.attempts + 1;
    const claimed: Post = {
      ...post,
      status: claimedStatus,
      attempts: attempt,
      delivery: {
        ...post.delivery,
        leaseId: randomUUID(),
        leaseUntil: new Date(deps.clock.now() + (deps.leaseMs ?? LEASE_MS)).toISOString(),
        lastAttemptAt: nowIso(),
      },
    };
    if (!(await write(post, claimed))) return 'dropped';
    const current: Post = { ...claimed, version: post.version + 1, updatedAt: nowIso() };

    /** After a failed attempt: queued again with backoff while the policy allows, else failed. */
    const settleFailure = async (
      facts: FailureFacts,
      origin: 'platform' | 'service',
    ): Promise<DeliveryResult> => {
      const decision = decideAfterFailure(
        facts,
        {
          attempt,
          now: deps.clock.now(),
          ...(post.delivery?.rateLimitedSince && { rateLimitedSince: post.delivery.rateLimitedSince }),
        },
        deps.random,
        deps.retryPolicy ?? DEFAULT_RETRY_POLICY,
      );
      if (decision.kind === 'fail') {
        return (await fail(current, { ...decision.error, origin })) ? 'failed' : 'dropped';
      }
      const retried = await write(current, {
        ...current,
        status: nextStatus(
          current.status,
          { type: 'retry' },
          { requireApproval: false, scheduledAtAhead: false },
        ),
        error: {
          origin,
          code: facts.code,
          message: facts.message,
          retryable: true,
          ...(facts.platformRawCode && { platformRawCode: facts.platformRawCode }),
        },
        delivery: {
          nextAttemptAt: new Date(deps.clock.now() + decision.delaySeconds * 1000).toISOString(),
          ...(decision.rateLimitedSince && { rateLimitedSince: decision.rateLimitedSince }),
          lastAttemptAt: current.delivery?.lastAttemptAt,
        },
      });
      return retried ? 'retrying' : 'dropped';
    };

    const context = await deps.posts.loadContext(
      post.tenantId,
      post.workspaceId,
      post.accountId,
      referencedMediaIds(post),
    );
    const account = context.account;
    if (account?.status !== 'connected') {
      await fail(current, {
        origin: 'service',
        code: account ? 'account_disconnected' : 'account_not_found',
        message: account
          ? 'The account was disconnected; reconnect it and post again.'
          : 'The account no longer exists.',
        retryable: false,
      });
      return 'failed';
    }
    // The account's daily ceiling, checked before any media is fetched: reserved now, given back
    // unless the post goes out.
    const quota = DAILY_QUOTAS[account.platform];
    const day = quotaDay(deps.clock.now());
    if (!(await deps.quotas.reserve(account.accountId, day, quota.costPerPost, quota.limit))) {
      await fail(current, {
        origin: 'service',
        code: 'DAILY_QUOTA_EXCEEDED',
        message: `The account has used its daily ${account.platform} quota (${quota.limit} ${quota.unit.replace('_', ' ')}); it resets at 00:00 UTC. Post again then.`,
        retryable: true,
      });
      return 'failed';
    }

    // From here the reservation is given back on every way out but one: the network accepting the post.
    let networkAccepted = false;
    try {
      const media: DeliveryMedia[] = [];
      const refs = mediaRefsWithPaths(post);
      for (const [index, { ref }] of refs.entries()) {
        if (ref.id) {
          const stored = context.media.get(ref.id);
          if (!stored) {
            await fail(current, {
              origin: 'service',
              code: 'media_not_found',
              message: `Media ${ref.id} was deleted before delivery.`,
              retryable: false,
            });
            return 'failed';
          }
          media.push({
            kind: mediaKindOf(stored.mimeType) ?? 'image',
            stored,
            ...(ref.alt && { alt: ref.alt }),
          });
        } else if (ref.url) {
          // Public URLs are fetched now, through the SSRF guard, and stored before the network sees them.
          const kind = ref.type ?? 'image';
          try {
            const fetched = await deps.fetchMedia(ref.url, kind);
            const key = `t/${post.tenantId}/w/${post.workspaceId}/p/${post.postId}/${index}`;
            await deps.storage.put(key, fetched.bytes, fetched.contentType);
            media.push({
              kind,
              url: ref.url,
              stored: {
                mediaId: `${post.postId}-${index}`,
                tenantId: post.tenantId,
                workspaceId: post.workspaceId,
                filename: new URL(fetched.finalUrl).pathname.split('/').pop() || 'download',
                mimeType: fetched.contentType,
                sizeBytes: fetched.bytes.length,
                status: 'uploaded',
                objectKey: key,
                source: 'url',
                sourceUrl: ref.url,
                createdAt: nowIso(),
              },
              ...(ref.alt && { alt: ref.alt }),
            });
          } catch (error) {
            const code = fetchFailureCode(error);
            if (!code) throw error;
            const message =
              error instanceof Error ? error.message : `The media URL ${ref.url} could not be used.`;
            // A host that is down or slow may be back later (retried like a network's 5xx); a refused
            // URL or an unfit file will not change.
            if ((error as { transient?: unknown }).transient === true) {
              return settleFailure({ failure: 'transient', code, message }, 'service');
            }
            await fail(current, { origin: 'service', code, message, retryable: false });
            return 'failed';
          }
        }
      }
      const connector = deps.connectorFor(account);
      if (!connector) {
        await fail(current, {
          origin: 'service',
          code: 'connector_unavailable',
          message: `No connector is configured for ${account.platform} on this deployment.`,
          retryable: true,
        });
        return 'failed';
      }

      const outcome = await withTimeout<PublishOutcome>(
        connector.publish({ post: current, account, attempt, clientReference: post.postId, media }).catch(
          (error: unknown): PublishOutcome => ({
            kind: 'failed',
            failure: 'transient',
            code: 'PLATFORM_UNAVAILABLE',
            message: error instanceof Error ? error.message : 'The network call failed.',
          }),
        ),
        CONNECTOR_TIMEOUT_MS,
        () => ({
          kind: 'failed',
          failure: 'transient',
          code: 'PLATFORM_TIMEOUT',
          message: 'The network did not answer in time.',
        }),
      );

      if (outcome.kind === 'published') {
        networkAccepted = true;
        const { error: _retryError, ...withoutError } = current;
        const done = await write(current, {
          ...withoutError,
          status: 'published',
          publishedAt: nowIso(),
          platformPostId: outcome.platformPostId,
          platformPostUrl: outcome.platformPostUrl,
          delivery: { lastAttemptAt: current.delivery?.lastAttemptAt },
        });
        return done ? 'published' : 'dropped';
      }

      if (outcome.failure === 'auth_revoked') {
        await deps.tenancy.markAccountDisconnected(account.tenantId, account.workspaceId, account.accountId, {
          at: nowIso(),
          reason: outcome.message,
        });
      }
      return settleFailure(outcome, 'platform');
    } finally {
      if (!networkAccepted) await deps.quotas.release(account.accountId, day, quota.costPerPost);
    }
  };
}

/** The SQS side: one message per post, the posts of a batch delivered at once. */
export function makeDeliveryWorker(deps: DeliveryDeps) {
  return makeSqsBatchHandler<DeliveryMessage>('delivery', makeDeliverPost(deps), { concurrent: true });
}
