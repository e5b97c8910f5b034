import type { PublishOutcome } from '../../ports/connector.js';
import { type FailedOutcome, failed, failureOfAnswer, outcomeOfError } from './errors.js';
import type { StrongRef } from './progress.js';
import { createdRef, createPostRecord, getPostRecord } from './records.js';
import type { XrpcCaller } from './xrpc.js';

/** A record made (or found made), or the outcome to stop with. */
export type ItemStep = { kind: 'posted'; ref: StrongRef } | { kind: 'stop'; outcome: PublishOutcome };

/**
 * createRecord under the key we chose. A 5xx may be "already exists" (indigo#873) or a write that
 * went through: it is looked up before anything else; no answer is `unknown`.
 */
export async function createItemRecord(
  caller: XrpcCaller,
  did: string,
  rkey: string,
  record: Record<string, unknown> & { text: string },
  now: () => number,
): Promise<ItemStep> {
  let answer: Awaited<ReturnType<typeof createPostRecord>>;
  try {
    answer = await createPostRecord(caller, did, rkey, record);
  } catch (error) {
    return { kind: 'stop', outcome: outcomeOfError(error) };
  }
  if (answer.ok) {
    const ref = createdRef(answer);
    // A success without the reference: the record is there, and the look-up names it.
    if (ref) return { kind: 'posted', ref };
  } else if (answer.status < 500) {
    return { kind: 'stop', outcome: failureOfAnswer(answer, now()) };
  }
  const looked = await lookUpItemRecord(caller, did, rkey, record.text, now);
  if (looked.kind === 'not_found')
    return {
      kind: 'stop',
      outcome: answer.ok ? failed('transient', 'PLATFORM_BAD_ANSWER') : failureOfAnswer(answer, now()),
    };
  return looked;
}

/**
 * getRecord of the key we chose: ours when it holds our text; someone else's text under our key
 * stops the post for a person to see (never posting twice).
 */
export async function lookUpItemRecord(
  caller: XrpcCaller,
  did: string,
  rkey: string,
  text: string,
  now: () => number,
): Promise<ItemStep | { kind: 'not_found' }> {
  try {
    const found = await getPostRecord(caller, did, rkey);
    if (found.kind === 'not_found') return found;
    if (found.kind === 'found' && found.text === text) return { kind: 'posted', ref: found.ref };
    if (found.kind === 'found') {
      return { kind: 'stop', outcome: failed('permanent', 'PLATFORM_REJECTED', 'rkey_taken') };
    }
    const outcome: FailedOutcome = found.answer
      ? failureOfAnswer(found.answer, now())
      : failed('transient', 'PLATFORM_BAD_ANSWER');
    return { kind: 'stop', outcome };
  } catch (error) {
    return { kind: 'stop', outcome: outcomeOfError(error) };
  }
}
