import type { Post } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';
import type { AccessCredentials, LookupOutcome, PublishProgress } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import { type DeliveryDeps, LOOKUP_TIMEOUT_MS } from './delivery-deps.js';

/** What the look-up asks about: the post, made for `account`, and what its attempts had finished. */
export interface LookupSubject {
  account: Account | undefined;
  post: Post;
  /** The account's access token, for a real network (the sandbox needs none). */
  credentials?: AccessCredentials;
  progress?: PublishProgress;
}

/**
 * Asks the account's network whether it has the post, made under the post's id as client
 * reference. Never throws: no account, no connector, a network that cannot look posts up, a failed
 * or slow look-up (its signal aborted at the time-out) all answer `unknown`.
 */
export function makeLookUp(deps: Pick<DeliveryDeps, 'connectorFor' | 'lookupTimeoutMs'>) {
  const timeoutMs = deps.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS;
  return async function lookUp(subject: LookupSubject, log: Logger): Promise<LookupOutcome> {
    const { account, post, credentials, progress } = subject;
    const connector = account && deps.connectorFor(account);
    if (!account || !connector?.findPublished) {
      return { kind: 'unknown', message: 'The network cannot look posts up.' };
    }
    const signal = AbortSignal.timeout(timeoutMs);
    const gaveUp = new Promise<LookupOutcome>((resolve) => {
      signal.addEventListener(
        'abort',
        () => resolve({ kind: 'unknown', message: 'The look-up did not answer in time.' }),
        { once: true },
      );
    });
    const answer = connector
      .findPublished({
        account,
        post,
        clientReference: post.postId,
        signal,
        ...(credentials && { credentials }),
        ...(progress && { progress }),
      })
      .catch((error: unknown): LookupOutcome => {
        log.warn('looking the post up on the network failed', { error });
        return { kind: 'unknown', message: 'The look-up failed.' };
      });
    const outcome = await Promise.race([answer, gaveUp]);
    log.info('looked the post up on the network', { found: outcome.kind });
    return outcome;
  };
}
