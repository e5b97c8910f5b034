import type { LookupOutcome, LookupRequest } from '../../ports/connector.js';
import { makeTimelineSearch } from './look-up.js';
import { readProgress } from './progress.js';
import { dueAt, tweetUrl, type XPublishSettings } from './publish.js';
import { firstParentOf, itemShapes } from './thread-items.js';

/**
 * After an attempt without an answer: is the post on X? Walks the thread from the first item the
 * progress does not hold, finding each on the account's timeline (look-up.ts), without posting.
 * - every item found: `found`, with the first tweet's id;
 * - none of the rest found: `not_found` (a thread some of whose items are on X is `not_found`
 *   too: the retry finds those items itself before posting, and posts only the rest);
 * - X did not answer usably, or could not tell: `unknown` (the post then fails
 *   delivery_uncertain rather than risk a second copy).
 */
export async function findOnX(settings: XPublishSettings, request: LookupRequest): Promise<LookupOutcome> {
  const { post, account, signal } = request;
  if (!request.credentials) {
    return { kind: 'unknown', message: 'The X account has no access token to look the post up with.' };
  }
  const search = makeTimelineSearch({
    caller: {
      apiUrl: settings.apiUrl,
      accessToken: request.credentials.accessToken,
      signal,
      ...(settings.fetch && { fetch: settings.fetch }),
    },
    account,
    dueAt: dueAt(post),
    now: settings.now,
    maxPages: settings.lookupPages,
  });
  const shapes = itemShapes(post);
  const ids = [...readProgress(request.progress).posted];
  for (let next = shapes[ids.length]; next; next = shapes[ids.length]) {
    const found = await search.find(next, ids.length === 0 ? firstParentOf(post) : ids.at(-1));
    if (found.kind === 'unknown') return { kind: 'unknown', message: found.failure.message };
    if (found.kind === 'not_found') return { kind: 'not_found' };
    ids.push(found.tweetId);
  }
  const rootId = ids[0];
  if (!rootId) return { kind: 'not_found' };
  return { kind: 'found', platformPostId: rootId, platformPostUrl: tweetUrl(account.handle, rootId) };
}
