import type { LookupOutcome, LookupRequest } from '../../ports/connector.js';
import { dueAtMs, itemTexts } from './items.js';
import { pdsCaller } from './pds-caller.js';
import { readProgress } from './progress.js';
import { getPostRecord, postUrl } from './records.js';
import { decodeSession } from './session.js';
import { itemRkey } from './tid.js';

/**
 * After an attempt without an answer: is the post on Bluesky? Every item's record key is known
 * before it is sent (tid.ts), so each is read from the PDS (getRecord), not searched for:
 * - the first item there (with our text): `found` when every item is, else `not_found` (the retry
 *   finds the items that are there itself, and posts only the rest);
 * - the first item not there: `not_found`;
 * - no usable answer: `unknown`.
 */
export async function findOnBluesky(
  fetchImpl: typeof fetch | undefined,
  request: LookupRequest,
): Promise<LookupOutcome> {
  const session = request.credentials && decodeSession(request.credentials.accessToken);
  if (!session)
    return { kind: 'unknown', message: 'The Bluesky account has no session to look the post up with.' };
  const caller = await pdsCaller(session, fetchImpl, request.signal);
  const texts = itemTexts(request.post);
  const posted = readProgress(request.progress).posted;
  const due = dueAtMs(request.post);
  let first = posted[0];
  for (let index = posted.length; index < texts.length; index += 1) {
    const rkey = itemRkey(request.clientReference, due, index);
    let found: Awaited<ReturnType<typeof getPostRecord>>;
    try {
      found = await getPostRecord(caller, session.did, rkey);
    } catch {
      return { kind: 'unknown', message: 'Bluesky did not answer the look-up.' };
    }
    if (found.kind === 'unknown')
      return {
        kind: 'unknown',
        message: `Bluesky answered the look-up with HTTP ${found.answer?.status ?? '?'}.`,
      };
    if (found.kind === 'not_found') return { kind: 'not_found' };
    if (found.text !== texts[index])
      return { kind: 'unknown', message: 'The record key of the post holds another post.' };
    first ??= found.ref;
  }
  if (!first) return { kind: 'not_found' };
  return { kind: 'found', platformPostId: first.uri, platformPostUrl: postUrl(first.uri) };
}
