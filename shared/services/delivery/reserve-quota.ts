import { DAILY_QUOTAS, PROJECT_QUOTA_COUNTERS, quotaDay } from '../../domain/account-quotas.js';
import type { Platform } from '../../domain/platforms.js';
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
 * Step 3, reserve quota: the account and the post's media (read with the post in step 1 when the
 * message named them, else now, in one round trip); the account must
 * be connected; then reserve the post's cost against the account's daily ceiling (one conditional
 * write), and for YouTube against the project's shared counter too, before any media is fetched.
 * Past either ceiling the post fails, retryable (DAILY_QUOTA_EXCEEDED for the account's,
 * PROJECT_QUOTA_EXCEEDED for the project's). A post the network is processing already holds its
 * reservations (`delivery.quotaDay`): a check reserves nothing new, and gives back that day's
 * reservations if the post goes no further.
 */
export function makeReserveQuota(deps: Pick<DeliveryDeps, 'posts' | 'quotas' | 'clock' | 'dailyQuotas'>) {
  const ceilings = deps.dailyQuotas ?? DAILY_QUOTAS;
  /** Gives back the account's reservation and, for YouTube, the project's taken with it. */
  const releaseAll = async (platform: Platform, accountId: string, day: string) => {
    const cost = ceilings[platform].costPerPost;
    await deps.quotas.release(accountId, day, cost);
    const project = PROJECT_QUOTA_COUNTERS[platform];
    if (project) await deps.quotas.release(project, day, cost);
  };
  /**
   * Reserves against the account's counter, then the project's (YouTube); a full project gives the
   * account's back, so either both are counted or neither.
   */
  const reserveAll = async (platform: Platform, accountId: string, day: string) => {
    const quota = ceilings[platform];
    if (!(await deps.quotas.reserve(accountId, day, quota.costPerPost, quota.limit))) return 'account';
    const project = PROJECT_QUOTA_COUNTERS[platform];
    if (project && !(await deps.quotas.reserve(project, day, quota.costPerPost, quota.limit))) {
      await deps.quotas.release(accountId, day, quota.costPerPost);
      return 'project';
    }
    return 'reserved';
  };
  return async function reserveQuota(post: Post, known?: PostContext): Promise<StepResult<Reservation>> {
    const context =
      known ??
      (await deps.posts.loadContext(
        post.tenantId,
        post.workspaceId,
        post.accountId,
        referencedMediaIds(post),
      ));
    const account = context.account;
    const held = post.delivery?.quotaDay;
    if (account?.status !== 'connected') {
      // A post the network was processing gives back the day it held: it goes no further.
      if (held) await releaseAll(post.platform, post.accountId, held);
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
    const outcome = held ? 'reserved' : await reserveAll(account.platform, account.accountId, day);
    if (outcome !== 'reserved') {
      const amount = `${quota.limit} ${quota.unit.replace('_', ' ')}`;
      return {
        settle: {
          kind: 'fail',
          error: {
            origin: 'service',
            ...(outcome === 'account'
              ? {
                  code: 'DAILY_QUOTA_EXCEEDED',
                  message: `The account has used its daily ${account.platform} quota (${amount}); it resets at 00:00 UTC. Post again then.`,
                }
              : {
                  code: 'PROJECT_QUOTA_EXCEEDED',
                  message: `This service's ${account.platform} project has used its daily quota (${amount}, every account together); it resets at 00:00 UTC. Post again then.`,
                }),
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
        release: () => releaseAll(account.platform, account.accountId, day),
      },
    };
  };
}
