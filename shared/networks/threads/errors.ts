import {
  type GraphErrorFacts as GraphCodes,
  graphFailure,
  readGraphErrorAnswer,
} from '../graph-api/error-answer.js';
import type { FailedOutcome } from '../publish/failed-outcome.js';
import { THREADS_NOT_READY_RETRY_SECONDS } from './limits.js';

export { rawCodeOf } from '../graph-api/error-answer.js';
export type { FailedOutcome } from '../publish/failed-outcome.js';

/** A throttle that names no time to wait: Meta's usage windows are an hour long. */
export const THREADS_THROTTLE_RETRY_SECONDS = 15 * 60;
/** The daily publishing limit without a readable window: try again in an hour. */
export const THREADS_PUBLISH_LIMIT_RETRY_SECONDS = 60 * 60;

/**
 * What a Graph error answer says (threads.md §10). Meta publishes no Threads code table, so the
 * message is read for the two refusals known only by their words; it is never kept or passed on.
 */
export interface GraphErrorFacts extends GraphCodes {
  transient?: boolean;
  /** What the message says, reduced to the signals we classify on. */
  signal?: 'link_limit' | 'text_too_long' | 'media_fetch' | 'token';
}

function signalOf(message: string): GraphErrorFacts['signal'] {
  if (message.includes('THREADS_API__LINK_LIMIT_EXCEEDED')) return 'link_limit';
  if (/text must be at most \d+ characters/i.test(message)) return 'text_too_long';
  if (/could not be fetched from this uri/i.test(message)) return 'media_fetch';
  if (/error validating access token/i.test(message)) return 'token';
  return undefined;
}

export async function readGraphError(response: Response): Promise<GraphErrorFacts> {
  const answer = await readGraphErrorAnswer(response);
  const facts: GraphErrorFacts = answer.facts;
  const { error } = answer;
  if (!error) return facts;
  if (error.is_transient === true) facts.transient = true;
  const signal = typeof error.message === 'string' ? signalOf(error.message) : undefined;
  if (signal) facts.signal = signal;
  return facts;
}

export type ThreadsStep = 'container' | 'status' | 'publish' | 'limit' | 'listing';
const STEP_NAMES: Readonly<Record<ThreadsStep, string>> = {
  container: 'a post container',
  status: 'the container status check',
  publish: 'the publish step',
  limit: 'the publishing-limit check',
  listing: "the account's posts",
};

const THROTTLE_CODES = new Set([4, 17, 32, 613]);
const TOKEN_CODE = 190;
/** 24/4279009 "Media Not Found": a container Meta made and cannot see yet (threads.md §4 pitfall). */
const NOT_READY = { code: 24, subcode: 4279009 };

/** A Graph error as a `failed` outcome (docs/networks.md, Threads, "Errors"). */
export function failureOf(facts: GraphErrorFacts, step: ThreadsStep): FailedOutcome {
  const what = STEP_NAMES[step];
  const fail = graphFailure(facts);
  const { code, subcode } = facts;
  if (code === TOKEN_CODE || facts.signal === 'token' || (code === undefined && facts.status === 401)) {
    // An expired token may be refreshed: the worker tries once, then disconnects the account.
    return fail('auth_rejected', 'TOKEN_REJECTED', `Threads refused the account's access token at ${what}.`);
  }
  if (code === NOT_READY.code && subcode === NOT_READY.subcode) {
    return {
      ...fail(
        'transient',
        'CONTAINER_NOT_READY',
        'Threads could not see the new post container yet; it will be published again shortly.',
      ),
      retryAfterSeconds: THREADS_NOT_READY_RETRY_SECONDS,
    };
  }
  if (code === 9 || subcode === 2207042) {
    return {
      ...fail(
        'rate_limited',
        'PUBLISH_LIMIT_REACHED',
        "The account's daily Threads publishing limit is reached.",
      ),
      retryAfterSeconds: THREADS_PUBLISH_LIMIT_RETRY_SECONDS,
    };
  }
  if ((code !== undefined && THROTTLE_CODES.has(code)) || facts.status === 429) {
    return {
      ...fail('rate_limited', 'RATE_LIMITED', `Threads throttled the app or account at ${what}.`),
      retryAfterSeconds: THREADS_THROTTLE_RETRY_SECONDS,
    };
  }
  if (subcode === 2207051) {
    return fail(
      'permanent',
      'PLATFORM_REJECTED_SPAM',
      'Threads refused the post to protect its community (spam-like activity).',
    );
  }
  if (subcode === 4279013) {
    return fail('permanent', 'ACCOUNT_RESTRICTED', 'Threads has restricted the account from posting.');
  }
  if (facts.signal === 'link_limit') {
    return fail(
      'permanent',
      'TOO_MANY_LINKS',
      'Threads refused the post: it has more than 5 distinct links.',
    );
  }
  if (facts.signal === 'text_too_long') {
    return fail(
      'permanent',
      'TEXT_TOO_LONG',
      'Threads refused the post: its text is longer than 500 characters.',
    );
  }
  if (subcode === 2207052 || facts.signal === 'media_fetch') {
    return fail(
      'transient',
      'MEDIA_FETCH_FAILED',
      'Threads could not fetch the media from its URL; it will be tried again.',
    );
  }
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) {
    return fail(
      'permanent',
      'PLATFORM_PERMISSION_DENIED',
      `Threads refused ${what}: the account lacks a permission (reconnect it to grant publishing).`,
    );
  }
  if (facts.status >= 500 || facts.transient || code === 1 || code === 2) {
    return fail('transient', 'PLATFORM_ERROR', `Threads failed with a server error at ${what}.`);
  }
  if (facts.status >= 400)
    return fail('permanent', 'PLATFORM_REJECTED', `Threads refused ${what} as invalid.`);
  return fail('transient', 'PLATFORM_ERROR', `Threads gave an unexpected answer at ${what}.`);
}

/** A step's failure carried up to `publish`, which adds the progress. Never leaves the connector. */
export class ThreadsStepFailed extends Error {
  override readonly name = 'ThreadsStepFailed';
  constructor(readonly outcome: FailedOutcome) {
    super(outcome.message);
  }
}

export async function failOnError(response: Response, step: ThreadsStep): Promise<void> {
  if (response.ok) return;
  throw new ThreadsStepFailed(failureOf(await readGraphError(response), step));
}

export function unreadable(what: string): ThreadsStepFailed {
  return new ThreadsStepFailed({
    kind: 'failed',
    failure: 'transient',
    code: 'PLATFORM_ERROR',
    message: `Threads answered ${what} unreadably.`,
  });
}
