import { commentDueOnPublish } from '../../domain/first-comment.js';
import { startCollectionAt } from '../../domain/metrics-schedule.js';
import {
  nextFollowUp,
  POST_ID_PENDING,
  POST_ID_UNAVAILABLE,
  withWarning,
} from '../../domain/post-id-follow-up.js';
import type { Post, PostWarning } from '../../domain/posts.js';
import type { Logger } from '../../ports/logger.js';
import { makeHasMetricsReader } from '../metrics/collects-metrics.js';
import { makeAuthorise } from './authorise.js';
import type { DeliveryDeps } from './delivery-deps.js';
import { makeLookUp } from './look-up.js';
import { decodeProgress } from './progress.js';
import { makeWriteIfUnchanged } from './write-if-unchanged.js';

export type FollowUpResult = 'named' | 'follow_up' | 'gave_up' | 'dropped';

/**
 * A published post whose network id is still to come (docs/delivery.md "A post id that comes
 * later"), due for a look-up:
 * 1. the account's fresh access token (a refresh as before a post);
 * 2. the connector's look-up, with the progress the publish left;
 * 3. named: the post gets its platformPostId and platformPostUrl, PLATFORM_POST_ID_PENDING goes;
 *    not yet (or no answer): the next look-up on the growing schedule; after three days the
 *    follow-up ends and PLATFORM_POST_ID_UNAVAILABLE replaces the pending warning.
 * The post stays published throughout; the one write is conditional on its version, so a duplicate
 * message or a concurrent change makes this one drop its work.
 */
export function makeFollowUpPostId(
  deps: Pick<
    DeliveryDeps,
    'posts' | 'tenancy' | 'secrets' | 'networks' | 'clock' | 'metrics' | 'connectorFor' | 'lookupTimeoutMs'
  >,
) {
  const authorise = makeAuthorise(deps);
  const lookUp = makeLookUp(deps);
  const write = makeWriteIfUnchanged(deps);
  const hasMetricsReader = makeHasMetricsReader(deps);

  return async function followUpPostId(post: Post, log: Logger): Promise<FollowUpResult> {
    const followUp = post.delivery?.postIdFollowUp;
    if (!followUp) return 'dropped';
    const account = await deps.tenancy.getAccount(post.tenantId, post.workspaceId, post.accountId);
    const authorised = account && (await authorise(account, AbortSignal.timeout(30_000), log));
    const credentials = authorised && 'proceed' in authorised ? authorised.proceed.credentials : undefined;
    const progress = decodeProgress(followUp.progress);
    const found = await lookUp(
      { account, post, ...(credentials && { credentials }), ...(progress && { progress }) },
      log,
    );
    const now = deps.clock.now();
    const { postIdFollowUp: _asked, ...delivery } = post.delivery ?? {};
    const { warnings: _earlier, ...base } = post;
    // The post with these warnings (none: no list at all).
    const warned = (warnings: PostWarning[]): Post => (warnings.length > 0 ? { ...base, warnings } : base);
    if (found.kind === 'found') {
      // Named at last: its metrics collection starts, at the first slot still ahead of it.
      const collection =
        post.publishedAt && hasMetricsReader(account) ? startCollectionAt(post.publishedAt, now) : undefined;
      const named = await write(post, {
        ...warned(withWarning(post.warnings, undefined, POST_ID_PENDING.code)),
        platformPostId: found.platformPostId,
        platformPostUrl: found.platformPostUrl,
        delivery,
        ...(collection && { metrics: { readings: [], collection } }),
        ...(post.firstComment && { firstComment: commentDueOnPublish(post, new Date(now).toISOString()) }),
      });
      if (!named) return 'dropped';
      log.info('the network named the published post', { platformPostId: found.platformPostId });
      return 'named';
    }
    const next = nextFollowUp(followUp, now);
    if (next === 'give_up') {
      const ended = await write(post, {
        ...warned(withWarning(post.warnings, POST_ID_UNAVAILABLE, POST_ID_PENDING.code)),
        delivery,
      });
      if (!ended) return 'dropped';
      log.warn('the network never named the published post; no more look-ups', {
        checks: followUp.checks + 1,
      });
      return 'gave_up';
    }
    const again = await write(post, { ...post, delivery: { ...delivery, postIdFollowUp: next } });
    if (!again) return 'dropped';
    log.info('the published post has no network id yet', {
      found: found.kind,
      checks: next.checks,
      nextCheckAt: next.nextCheckAt,
    });
    return 'follow_up';
  };
}
