import type { PublishOutcome } from '../../ports/connector.js';
import { readJson } from './api.js';

export type FailedOutcome = Extract<PublishOutcome, { kind: 'failed' }>;

/**
 * LinkedIn publishes no rate-limit headers and its limits are daily (reset at midnight UTC,
 * networks/linkedin.md §7); a 429 may also be short infrastructure protection. Five minutes lets
 * the retry policy's ~15-minute window try about three times, enough for the short kind, before
 * the post fails RATE_LIMITED (retryable: the caller may try again after the daily reset).
 */
export const LINKEDIN_RATE_LIMIT_RETRY_SECONDS = 300;

/** What a LinkedIn error answer says, read from its JSON body (networks/linkedin.md §8). */
export interface LinkedInErrorFacts {
  status: number;
  serviceErrorCode?: number;
  code?: string;
  inputErrorCodes: string[];
  /** A DUPLICATE_POST names the post it duplicates ("Content is a duplicate of urn:li:share:…"). */
  duplicateOf?: string;
  retryAfterSeconds?: number;
}

const DUPLICATE_OF = /\burn:li:(?:share|ugcPost):[0-9]+\b/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function inputErrorCodes(body: Record<string, unknown>): string[] {
  const details = body.errorDetails;
  if (!isRecord(details) || !Array.isArray(details.inputErrors)) return [];
  return details.inputErrors.flatMap((item: unknown) =>
    isRecord(item) && typeof item.code === 'string' ? [item.code] : [],
  );
}

/** Reads the error body; the body's text is never kept, only its codes. */
export async function readLinkedInError(response: Response): Promise<LinkedInErrorFacts> {
  const body = await readJson(response);
  const facts: LinkedInErrorFacts = { status: response.status, inputErrorCodes: [] };
  const retryAfter = Number(response.headers.get('retry-after'));
  if (Number.isInteger(retryAfter) && retryAfter > 0) facts.retryAfterSeconds = retryAfter;
  if (!isRecord(body)) return facts;
  if (typeof body.serviceErrorCode === 'number') facts.serviceErrorCode = body.serviceErrorCode;
  if (typeof body.code === 'string') facts.code = body.code;
  facts.inputErrorCodes = inputErrorCodes(body);
  if (typeof body.message === 'string') {
    const duplicateOf = DUPLICATE_OF.exec(body.message)?.[0];
    if (duplicateOf) facts.duplicateOf = duplicateOf;
  }
  return facts;
}

/** `platformRawCode`: LinkedIn's own code, `serviceErrorCode` first, else its `code`, else the status. */
export function rawCodeOf(facts: LinkedInErrorFacts): string {
  if (facts.serviceErrorCode !== undefined) return String(facts.serviceErrorCode);
  return facts.code ?? facts.inputErrorCodes[0] ?? String(facts.status);
}

export function isDuplicatePost(facts: LinkedInErrorFacts): boolean {
  return facts.code === 'DUPLICATE_POST' || facts.inputErrorCodes.includes('DUPLICATE_POST');
}

/** What a step was doing, for the message: LinkedIn's own text is never passed on. */
export type LinkedInStep = 'post' | 'media' | 'author' | 'profile' | 'comment';

const STEP_NAMES: Readonly<Record<LinkedInStep, string>> = {
  post: 'the post',
  media: 'a media upload',
  author: 'the organization check',
  profile: 'the member look-up',
  comment: 'the first comment',
};

/** A LinkedIn error answer as a `failed` outcome (networks/README.md "Common mapping"). */
export function failureOf(facts: LinkedInErrorFacts, step: LinkedInStep): FailedOutcome {
  const platformRawCode = rawCodeOf(facts);
  const fail = (failure: FailedOutcome['failure'], code: string, message: string): FailedOutcome => ({
    kind: 'failed',
    failure,
    code,
    message,
    platformRawCode,
  });
  const what = STEP_NAMES[step];
  if (facts.status === 401) {
    // 65600 invalid, 65601 revoked, or expired: a refresh may fix it; the worker tries one.
    return fail('auth_rejected', 'TOKEN_REJECTED', `LinkedIn refused the account's access token at ${what}.`);
  }
  if (facts.status === 429) {
    return {
      ...fail('rate_limited', 'RATE_LIMITED', `LinkedIn's daily limit for this app or member was reached.`),
      retryAfterSeconds: facts.retryAfterSeconds ?? LINKEDIN_RATE_LIMIT_RETRY_SECONDS,
    };
  }
  if (isDuplicatePost(facts)) {
    return {
      ...fail('permanent', 'DUPLICATE_CONTENT', 'LinkedIn refused the post as a duplicate of a recent one.'),
      platformRawCode: 'DUPLICATE_POST',
    };
  }
  if (facts.status === 413) {
    return fail('permanent', 'MEDIA_TOO_LARGE', 'LinkedIn refused the media: the file is too large.');
  }
  if (facts.status === 403) {
    return fail(
      'permanent',
      'PLATFORM_PERMISSION_DENIED',
      `LinkedIn refused ${what}: the account lacks a permission or role it needs (reconnect it, or check the organization role).`,
    );
  }
  if (facts.status === 426) {
    return fail(
      'permanent',
      'PLATFORM_VERSION_UNSUPPORTED',
      `LinkedIn no longer serves the API version this service uses for ${what}.`,
    );
  }
  if (facts.status >= 500) {
    return fail('transient', 'PLATFORM_ERROR', `LinkedIn failed with a server error at ${what}.`);
  }
  if (facts.status >= 400) {
    return fail('permanent', 'PLATFORM_REJECTED', `LinkedIn refused ${what} as invalid.`);
  }
  return fail('transient', 'PLATFORM_ERROR', `LinkedIn gave an unexpected answer at ${what}.`);
}

/**
 * A step's failure, carried up to `publish`, which adds what was done so far. Thrown and caught
 * inside the connector only: it never leaves it.
 */
export class LinkedInStepFailed extends Error {
  override readonly name = 'LinkedInStepFailed';
  constructor(readonly outcome: FailedOutcome) {
    super(outcome.message);
  }
}

/** Throws the mapped failure of a non-2xx answer. */
export async function failOnError(response: Response, step: LinkedInStep): Promise<void> {
  if (response.ok) return;
  throw new LinkedInStepFailed(failureOf(await readLinkedInError(response), step));
}
