import { randomUUID } from 'node:crypto';
import { nextDeliveryStatus } from '../../domain/post-lifecycle.js';
import type { Post } from '../../domain/posts.js';
import type { Logger } from '../../ports/logger.js';
import { type DeliveryDeps, LEASE_MS } from './delivery-deps.js';
import type { Held } from './verdict.js';
import { makeWriteIfUnchanged } from './write-if-unchanged.js';

/** The worker's claim on a post: publishing, with a lease it renews while it works. */
export interface Lease extends Held {
  readonly lost: AbortSignal;
  /** This delivery's attempt number (the post's `attempts` once claimed). */
  readonly attempt: number;
  /** What the post was when claimed: a scheduled post's first attempt has a start delay to measure. */
  readonly claimedFrom: 'scheduled' | 'queued';
  /** Stops renewing (also done by `settle`); safe to call more than once. */
  end(): Promise<void>;
}

/** The claim was taken back (the reconciler, after the lease ran out): the worker must stop. */
export class LeaseLostError extends Error {
  constructor() {
    super('The claim on the post was lost: someone else changed it.');
    this.name = 'LeaseLostError';
  }
}

/**
 * Step 2, claim: scheduled/queued → publishing (through the lifecycle table), attempts + 1 (not for
 * a check of a post the network is processing: that continues the same attempt), with a lease, by a write conditioned on the version read; losing that race means another worker has
 * it (undefined). While held, a heartbeat every quarter lease moves `leaseUntil` on by a conditional
 * write of the held version, so a live worker keeps its claim however long the network takes and a
 * dead one loses it within one lease. Each renewal is a write like any other (the version moves
 * on); the lease keeps the post as last written, so its own later writes stay conditioned on the
 * right version. A renewal that finds the post changed means the claim is lost: `lost` is aborted.
 */
export function makeClaim(deps: Pick<DeliveryDeps, 'posts' | 'clock' | 'leaseMs'>) {
  const write = makeWriteIfUnchanged(deps);
  const leaseMs = deps.leaseMs ?? LEASE_MS;
  const leaseUntil = () => new Date(deps.clock.now() + leaseMs).toISOString();

  return async function claim(post: Post, log: Logger): Promise<Lease | undefined> {
    const status = post.status === 'scheduled' ? nextDeliveryStatus(post.status, 'due') : post.status;
    const claimed = await write(post, {
      ...post,
      status: nextDeliveryStatus(status, 'claim'),
      // A check of a post the network is processing continues its attempt.
      attempts: post.delivery?.pending?.checkDue ? post.attempts : post.attempts + 1,
      delivery: {
        ...post.delivery,
        leaseId: randomUUID(),
        leaseUntil: leaseUntil(),
        lastAttemptAt: new Date(deps.clock.now()).toISOString(),
      },
    });
    if (!claimed) {
      log.debug('claim lost to another worker');
      return undefined;
    }
    return holdLease(claimed, post.status === 'scheduled' ? 'scheduled' : 'queued', log);
  };

  function holdLease(claimed: Post, claimedFrom: Lease['claimedFrom'], log: Logger): Lease {
    let held = claimed;
    let renewing: Promise<void> = Promise.resolve();
    let ended = false;
    const lost = new AbortController();

    const renew = async () => {
      if (ended) return;
      try {
        const renewed = await write(held, {
          ...held,
          delivery: { ...held.delivery, leaseUntil: leaseUntil() },
        });
        if (renewed) {
          held = renewed;
          return;
        }
        stop();
        lost.abort(new LeaseLostError());
        log.warn('delivery claim lost: the post was taken back while this worker held it');
      } catch (error) {
        // A store hiccup: the lease still has three quarters to run; the next beat tries again.
        log.warn('lease renewal failed; trying again', { error });
      }
    };
    const timer = setInterval(() => {
      renewing = renewing.then(renew);
    }, leaseMs / 4);
    const stop = () => {
      ended = true;
      clearInterval(timer);
    };
    const end = async () => {
      stop();
      await renewing;
    };

    return {
      get post() {
        return held;
      },
      lost: lost.signal,
      attempt: claimed.attempts,
      claimedFrom,
      end,
      async settle(change) {
        await end();
        if (lost.signal.aborted) return false;
        const written = await write(held, change(held));
        if (written) held = written;
        return written !== undefined;
      },
    };
  }
}
