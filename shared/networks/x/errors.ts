import type { PublishOutcome } from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { type ProblemAnswer, type ProcessingInfo, problemAnswer } from './answers.js';
import type { XAnswer } from './api.js';
import { secondsUntilReset, type XRateLimit } from './rate-limit.js';

export type FailedOutcome = Extract<PublishOutcome, { kind: 'failed' }>;
export type UnknownOutcome = Extract<PublishOutcome, { kind: 'unknown' }>;

/** Which call X refused: a 400 from the media upload is about the file, from POST /2/tweets about the post. */
export type XStep = 'tweet' | 'media_upload' | 'media_status' | 'media_metadata' | 'lookup' | 'profile';

/**
 * Our message for each code: what is stored on the post and shown to callers. Never X's body,
 * which may echo the post or say things we cannot vouch for.
 */
export const X_MESSAGES = {
  RATE_LIMITED: 'X rate limit reached; the post is retried after its window resets.',
  TOKEN_REJECTED: "X refused the account's access token.",
  TOKEN_REVOKED: 'The X account has no usable authorisation; reconnect it.',
  DUPLICATE_CONTENT: 'X refused the post as a duplicate of one already on the account.',
  PLATFORM_REJECTED: 'X refused the request as invalid.',
  PLATFORM_FORBIDDEN: 'X does not allow this app or account to post this (plan, scope or permission).',
  MEDIA_TOO_LARGE: 'X refused the media: the file is larger than X takes.',
  MEDIA_REJECTED: 'X refused the media file.',
  MEDIA_PROCESSING_FAILED: 'X could not process the media file.',
  MEDIA_TYPE_NOT_SUPPORTED: 'X does not take this type of file.',
  MEDIA_UNAVAILABLE: "The media's bytes could not be read from storage.",
  PLATFORM_ERROR: 'X answered with a server error.',
  PLATFORM_UNREACHABLE: 'X could not be reached.',
  PLATFORM_NO_ANSWER: 'X did not answer, and the post may be on X.',
  PLATFORM_TIMEOUT: 'X did not answer in time, and the post may be on X.',
  CONNECTION_RESET: 'The connection to X broke before it answered, and the post may be on X.',
  PLATFORM_BAD_ANSWER: 'X answered with something the connector could not read.',
  REPLY_NOT_ALLOWED:
    'X refused the first comment (a reply to the post): X limits who may reply through its API, and this account may not reply here.',
  PLATFORM_LOOKUP_INCONCLUSIVE:
    'An earlier attempt may have posted this, and the X account has posted too much since for the look-up to tell; it is not posted again.',
} as const;
export type XCode = keyof typeof X_MESSAGES;

function failed(
  failure: FailedOutcome['failure'],
  code: XCode,
  platformRawCode?: string,
  extra: Partial<Pick<FailedOutcome, 'retryAfterSeconds'>> = {},
): FailedOutcome {
  return {
    kind: 'failed',
    failure,
    code,
    message: X_MESSAGES[code],
    ...(platformRawCode && { platformRawCode }),
    ...extra,
  };
}

/** `https://api.x.com/2/problems/usage-capped` → `usage-capped`; `about:blank` says nothing. */
function problemSlug(type: string | undefined): string | undefined {
  if (!type || type === 'about:blank') return undefined;
  return type.split('/').filter(Boolean).pop();
}

/** X's own code for the answer: `<status> <problem type>` or `<status> <code>`, else the status. */
function rawCodeOf(status: number, problem: ProblemAnswer | undefined): string {
  const slug = problemSlug(problem?.type) ?? problemSlug(problem?.errors?.[0]?.type);
  if (slug) return `${status} ${slug}`;
  const code = problem?.errors?.[0]?.code;
  return code === undefined ? String(status) : `${status} ${code}`;
}

/** Everything X wrote about the error, lower-cased, for the few signals X only gives in words. */
function wordsOf(problem: ProblemAnswer | undefined): string {
  if (!problem) return '';
  const parts = [problem.title, problem.detail];
  for (const error of problem.errors ?? []) parts.push(error.message, error.detail, error.title);
  return parts.filter(Boolean).join(' ').toLowerCase();
}

const TOO_LARGE = /too large|too big|exceeds|file size|size limit|max(imum)? size/;

/**
 * An error answer as a failed outcome (twitter.md §5 and shared/networks/README.md "Common
 * mapping"). X says "duplicate" and "too large" only in words, so those two are read from the
 * problem's text; everything else from the status and the problem type.
 */
export function failureOfAnswer(answer: XAnswer, step: XStep, nowMs: number): FailedOutcome {
  const problem = problemAnswer.safeParse(answer.body).data;
  const raw = rawCodeOf(answer.status, problem);
  const slug = problemSlug(problem?.type);
  const words = wordsOf(problem);
  if (answer.status === 429 || slug === 'usage-capped' || slug === 'rate-limit-exceeded') {
    return rateLimited(answer.rateLimit, nowMs, raw);
  }
  if (answer.status === 401) return failed('auth_rejected', 'TOKEN_REJECTED', raw);
  if (answer.status === 403 && words.includes('duplicate')) {
    return failed('permanent', 'DUPLICATE_CONTENT', raw);
  }
  if (answer.status >= 500 || answer.status === 408) return failed('transient', 'PLATFORM_ERROR', raw);
  const mediaStep = step === 'media_upload' || step === 'media_status' || step === 'media_metadata';
  if (mediaStep && (answer.status === 413 || (answer.status === 400 && TOO_LARGE.test(words)))) {
    return failed('permanent', 'MEDIA_TOO_LARGE', raw);
  }
  if (answer.status === 403) return failed('permanent', 'PLATFORM_FORBIDDEN', raw);
  if (mediaStep) return failed('permanent', 'MEDIA_REJECTED', raw);
  return failed('permanent', 'PLATFORM_REJECTED', raw);
}

export function rateLimited(rateLimit: XRateLimit, nowMs: number, raw = '429'): FailedOutcome {
  return failed('rate_limited', 'RATE_LIMITED', raw, {
    retryAfterSeconds: secondsUntilReset(rateLimit, nowMs),
  });
}

/** X finished processing the file and refused it: the same file will fail again. */
export function processingFailure(info: ProcessingInfo): FailedOutcome {
  return failed('permanent', 'MEDIA_PROCESSING_FAILED', info.error?.name ?? info.state);
}

export function localFailure(
  failure: FailedOutcome['failure'],
  code:
    | 'MEDIA_TOO_LARGE'
    | 'MEDIA_TYPE_NOT_SUPPORTED'
    | 'MEDIA_UNAVAILABLE'
    | 'TOKEN_REVOKED'
    | 'PLATFORM_REJECTED',
): FailedOutcome {
  return failed(failure, code);
}

/** An answer whose status says success and whose body lacks what X documents. */
export function badAnswer(answer: XAnswer): FailedOutcome {
  return failed('transient', 'PLATFORM_BAD_ANSWER', String(answer.status));
}

/**
 * A call that got no answer, for a step that cannot create a post (an upload, a status check, a
 * look-up): whatever reached X, nothing is on the account, so it is a plain transient failure.
 * Anything that is not a network failure is a bug and is rethrown.
 */
export function failureOfError(error: unknown): FailedOutcome {
  if (error instanceof RequestNotSentError) return failed('transient', 'PLATFORM_UNREACHABLE', error.code);
  if (error instanceof NoAnswerError) return failed('transient', 'PLATFORM_NO_ANSWER', error.code);
  throw error;
}

/** A POST /2/tweets that got no answer: X may have the post; the worker looks it up. */
export function unknownOfError(error: NoAnswerError): UnknownOutcome {
  const code: XCode =
    error.code === 'ABORTED'
      ? 'PLATFORM_TIMEOUT'
      : error.code === 'ECONNRESET' || error.code === 'UND_ERR_SOCKET'
        ? 'CONNECTION_RESET'
        : 'PLATFORM_NO_ANSWER';
  return { kind: 'unknown', code, message: X_MESSAGES[code] };
}
