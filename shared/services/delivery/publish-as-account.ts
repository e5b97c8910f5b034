import type { Account } from '../../domain/tenancy.js';
import type { AccessCredentials } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import { makeAuthorise } from './authorise.js';
import type { Lease } from './claim.js';
import type { DeliveryDeps } from './delivery-deps.js';
import { connectorUnavailable, makePublish } from './publish.js';
import type { ResolvedMedia } from './resolve-media.js';
import type { Verdict } from './verdict.js';

export interface Published {
  verdict: Verdict;
  /** The access token the last call used: a look-up after an unknown outcome uses it too. */
  credentials?: AccessCredentials;
}

/**
 * Steps 4b and 5: fresh credentials, then the connector. A network that refuses the access token
 * (`auth_rejected`, a 401) gets one more call within the same attempt, after a forced refresh:
 * the refusal happened before the network did anything, so it is not a try of the post, and the
 * attempt count does not move. If the refresh is refused, the account is disconnected; if the fresh
 * token is refused too, the authorisation is treated as revoked (`auth_revoked`).
 */
export function makePublishAsAccount(
  deps: Pick<
    DeliveryDeps,
    | 'tenancy'
    | 'secrets'
    | 'networks'
    | 'clock'
    | 'metrics'
    | 'connectorFor'
    | 'bytes'
    | 'mediaUrls'
    | 'connectorTimeoutMs'
    | 'quotas'
    | 'linkPreview'
  >,
) {
  const authorise = makeAuthorise(deps);
  const publish = makePublish(deps);

  return async function publishAsAccount(
    lease: Lease,
    account: Account,
    media: ResolvedMedia,
    log: Logger,
  ): Promise<Published> {
    // No connector, no reason to open the account's tokens.
    if (!deps.connectorFor(account)) return { verdict: connectorUnavailable(account) };
    const first = await authorise(account, lease.lost, log);
    if ('settle' in first) return { verdict: first.settle };
    const post = lease.post;
    if (lease.claimedFrom === 'scheduled' && post.scheduledAt) {
      deps.metrics.milliseconds('ScheduledStartDelay', deps.clock.now() - Date.parse(post.scheduledAt), {
        platform: post.platform,
      });
    }
    const verdict = await publish(lease, first.proceed, media, log);
    const used = first.proceed.credentials && { credentials: first.proceed.credentials };
    if (!refusedToken(verdict) || lease.lost.aborted) return { verdict, ...used };
    if (account.sandbox) return { verdict: revoked(verdict) };

    log.info('the network refused the access token; renewing it and trying once more');
    const again = await authorise(first.proceed.account, lease.lost, log, { force: true });
    if ('settle' in again) return { verdict: again.settle, ...used };
    const retried = await publish(
      lease,
      again.proceed,
      media,
      log,
      verdict.progress ?? post.delivery?.progress,
    );
    const fresh = again.proceed.credentials && { credentials: again.proceed.credentials };
    return { verdict: refusedToken(retried) ? revoked(retried) : retried, ...fresh };
  };
}

type TokenRefused = Extract<Verdict, { kind: 'failure' }>;

function refusedToken(verdict: Verdict): verdict is TokenRefused {
  return verdict.kind === 'failure' && verdict.facts.failure === 'auth_rejected';
}

/** A token refused even fresh (or one that cannot be renewed): the authorisation is gone. */
function revoked(verdict: TokenRefused): Verdict {
  return { ...verdict, facts: { ...verdict.facts, failure: 'auth_revoked' } };
}
