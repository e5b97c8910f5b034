import { DAILY_QUOTAS, quotaDay } from '../../domain/account-quotas.js';
import type { Post } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';
import type { PostContext } from '../../ports/post-store.js';
import { referencedMediaIds } from '../posts/post-checks.js';
import type { DeliveryDeps } from './delivery-deps.js';
import type { StepResult } from './verdict.js';

/** A connected account with today's cost of the post reserved against its daily ceiling. */
export interface Reservation {
  account: Account;
  /** The account and the post's stored media, read in one round trip. */
  context: PostContext;
  /** The UTC day the reservation counts in. */
  day: string;
  /** Gives the reservation back (the post did not go out). */
  release(): Promise<void>;
}

/**
 * Step 3, reserve quota: read the account and the post's media in one round trip; the account must
 * be connected; then reserve the post's cost against the account's daily ceiling (one conditional
 * write), before any media is fetched. Past the ceiling the post fails, retryable. A post the network
 * is processing already holds its reservation (`delivery.quotaDay`): a check reserves nothing new,
 * and gives back that day's reservation if the post goes no further.
 */
export function makeReserveQuota(deps: Pick<DeliveryDeps, 'posts' | 'quotas' | 'clock' | 'dailyQuotas'>) {
  const ceilings = deps.dailyQuotas ?? DAILY_QUOTAS;
  return async function reserveQuota(post: Post): Promise<StepResult<Reservation>> {
    const context = await deps.posts.loadContext(
      post.tenantId,
      post.workspaceId,
      post.accountId,
      referencedMediaIds(post),
    );
    const account = context.account;
    const held = post.delivery?.quotaDay;
    if (account?.status !== 'connected') {
      // A post the network was processing gives back the day it held: it goes no further.
      if (held) await deps.quotas.release(post.accountId, held, ceilings[post.platform].costPerPost);
      return {
        settle: {
          kind: 'fail',
          error: {
            origin: 'service',
            code: account ? 'account_disconnected' : 'account_not_found',
            message: account
              ? 'The account was disconnected; reconnect it and post again.'
              : 'The account no longer exists.',
            retryable: false,
          },
        },
      };
    }
    const quota = ceilings[account.platform];
    const day = held ?? quotaDay(deps.clock.now());
    if (!held && !(await deps.quotas.reserve(account.accountId, day, quota.costPerPost, quota.limit))) {
      return {
        settle: {
          kind: 'fail',
          error: {
            origin: 'service',
            code: 'DAILY_QUOTA_EXCEEDED',
            message: `The account has used its daily ${account.platform} quota (${quota.limit} ${quota.unit.replace('_', ' ')}); it resets at 00:00 UTC. Post again then.`,
            retryable: true,
          },
        },
      };
    }
    return {
      proceed: {
        account,
        context,
        day,
        release: () => deps.quotas.release(account.accountId, day, quota.costPerPost),
      },
    };
  };
}
