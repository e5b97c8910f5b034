import type { PublishOutcome } from '../../ports/connector.js';
import { isRecord } from '../http/json-answer.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { isPdsAddressRefusal } from './pds-fetch.js';
import type { XrpcAnswer } from './xrpc.js';

export type FailedOutcome = Extract<PublishOutcome, { kind: 'failed' }>;
export type UnknownOutcome = Extract<PublishOutcome, { kind: 'unknown' }>;

/**
 * Our message for each code: what is stored on the post and shown to callers. Never the network's
 * body, which may echo the post.
 */
export const BLUESKY_MESSAGES = {
  RATE_LIMITED: 'Bluesky rate limit reached; the post is retried after its window resets.',
  TOKEN_REJECTED: "Bluesky refused the account's access token.",
  TOKEN_REVOKED: 'The Bluesky account has no usable authorisation; reconnect it.',
  ACCOUNT_UNAVAILABLE: 'The Bluesky account is taken down, suspended or deactivated.',
  PLATFORM_FORBIDDEN:
    'Bluesky does not allow this session to post (a permission is missing); reconnect the account.',
  PLATFORM_REJECTED: 'Bluesky refused the post as invalid.',
  MEDIA_TOO_LARGE: 'Bluesky refused the media: the file is larger than it takes.',
  MEDIA_REJECTED: 'Bluesky refused the media file.',
  MEDIA_PROCESSING_FAILED: "Bluesky's video service could not process the video.",
  VIDEO_QUOTA_EXCEEDED:
    "The Bluesky account's daily video allowance is spent, or its e-mail is not verified.",
  MEDIA_UNAVAILABLE: "The media's bytes could not be read from storage.",
  PLATFORM_ERROR: 'Bluesky answered with a server error.',
  PLATFORM_UNREACHABLE: 'Bluesky could not be reached.',
  PLATFORM_NO_ANSWER: 'Bluesky did not answer, and the post may be on Bluesky.',
  PLATFORM_BAD_ANSWER: 'Bluesky answered with something the connector could not read.',
  COMMENT_TARGET_GONE: 'The post is no longer on Bluesky, so its first comment cannot be made.',
  PDS_ADDRESS_REFUSED:
    "The Bluesky account's PDS is not at a public address, so it is not called; reconnect the account.",
} as const;
export type BlueskyCode = keyof typeof BLUESKY_MESSAGES;

export function failed(
  failure: FailedOutcome['failure'],
  code: BlueskyCode,
  platformRawCode?: string,
  retryAfterSeconds?: number,
): FailedOutcome {
  return {
    kind: 'failed',
    failure,
    code,
    message: BLUESKY_MESSAGES[code],
    ...(platformRawCode && { platformRawCode }),
    ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
  };
}

/** The XRPC error name (`{"error": "<Name>"}`), or the DPoP challenge's error, when the answer has one. */
export function errorName(answer: XrpcAnswer): string | undefined {
  if (isRecord(answer.body) && typeof answer.body.error === 'string') return answer.body.error;
  const challenge = answer.headers.get('www-authenticate') ?? '';
  return /error="([^"]+)"/.exec(challenge)?.[1];
}

/** `RateLimit-Reset` (epoch seconds, as the PDS sends it) or `Retry-After` (seconds), as a wait. */
export function retryAfterOf(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = Number(headers.get('retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.ceil(retryAfter);
  const reset = Number(headers.get('ratelimit-reset'));
  if (!Number.isFinite(reset) || reset <= 0) return undefined;
  // A reset far larger than any window is a time, else a number of seconds (parsed defensively).
  const seconds = reset > 1e9 ? reset - nowMs / 1000 : reset;
  return Math.max(1, Math.ceil(seconds));
}

const ACCOUNT_GONE = new Set([
  'AccountTakedown',
  'AccountDeactivated',
  'AccountSuspended',
  'RepoTakendown',
  'RepoDeactivated',
  'RepoSuspended',
]);
const TOKEN_EXPIRED = new Set(['ExpiredToken', 'invalid_token', 'InvalidToken']);

/**
 * An error answer in our terms (research §5): by status first, then by the XRPC name, since the
 * names beyond the lexicons' are the reference PDS's, not guaranteed. `media` says the call was a
 * blob upload, so a 400 is about the file.
 */
export function failureOfAnswer(answer: XrpcAnswer, nowMs: number, media = false): FailedOutcome {
  const name = errorName(answer);
  const raw = name ? `${answer.status} ${name}` : String(answer.status);
  if (answer.status === 429)
    return failed('rate_limited', 'RATE_LIMITED', raw, retryAfterOf(answer.headers, nowMs));
  if (name && ACCOUNT_GONE.has(name)) return failed('auth_revoked', 'ACCOUNT_UNAVAILABLE', raw);
  if (answer.status === 401 || (name && TOKEN_EXPIRED.has(name)))
    return failed('auth_rejected', 'TOKEN_REJECTED', raw);
  if (answer.status === 403) return failed('auth_revoked', 'PLATFORM_FORBIDDEN', raw);
  if (answer.status === 413 || name === 'BlobTooLarge' || name === 'PayloadTooLarge') {
    return failed('permanent', 'MEDIA_TOO_LARGE', raw);
  }
  if (answer.status >= 500) return failed('transient', 'PLATFORM_ERROR', raw);
  return failed('permanent', media ? 'MEDIA_REJECTED' : 'PLATFORM_REJECTED', raw);
}

/** A request that got no answer: certainly not sent (a failure to retry), or perhaps acted on (unknown). */
export function outcomeOfError(error: unknown): FailedOutcome | UnknownOutcome {
  // Refused before anything was sent; only a reconnect (the DID document read again) can mend it.
  if (isPdsAddressRefusal(error)) return failed('auth_revoked', 'PDS_ADDRESS_REFUSED', 'pds_address_refused');
  if (error instanceof RequestNotSentError) return failed('transient', 'PLATFORM_UNREACHABLE', error.code);
  const code = error instanceof NoAnswerError ? error.code : 'UNKNOWN';
  return {
    kind: 'unknown',
    code: code === 'ABORTED' ? 'PLATFORM_TIMEOUT' : 'PLATFORM_NO_ANSWER',
    message: BLUESKY_MESSAGES.PLATFORM_NO_ANSWER,
  };
}
