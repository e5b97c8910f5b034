import type { PublishOutcome } from '../../ports/connector.js';
import { isRecord, readJson } from './api.js';
import {
  secondsUntilPacificMidnight,
  YOUTUBE_RATE_LIMIT_RETRY_SECONDS,
  YOUTUBE_UPLOAD_LIMIT_RETRY_SECONDS,
} from './limits.js';

export type FailedOutcome = Extract<PublishOutcome, { kind: 'failed' }>;

/** What a Google error answer says (youtube.md §7): its status and `errors[0].reason`; never its text. */
export interface GoogleErrorFacts {
  status: number;
  reason?: string;
}

export async function readGoogleError(response: Response): Promise<GoogleErrorFacts> {
  const body = await readJson(response);
  const facts: GoogleErrorFacts = { status: response.status };
  if (!isRecord(body) || !isRecord(body.error)) return facts;
  const first = Array.isArray(body.error.errors) ? (body.error.errors[0] as unknown) : undefined;
  if (isRecord(first) && typeof first.reason === 'string') facts.reason = first.reason;
  else if (typeof body.error.status === 'string') facts.reason = body.error.status;
  return facts;
}

/** What a step was doing, for our message: Google's own text is never passed on. */
export type YouTubeStep = 'upload' | 'status' | 'channel';
const STEP_NAMES: Readonly<Record<YouTubeStep, string>> = {
  upload: 'the video upload',
  status: 'the processing check',
  channel: 'the channel look-up',
};

/** Reasons that say the channel itself cannot be used: reconnecting (or a channel) is needed. */
const ACCOUNT_UNUSABLE = new Set([
  'authenticatedUserAccountClosed',
  'authenticatedUserAccountSuspended',
  'authenticatedUserNotChannel',
]);
/** Reasons for metadata YouTube refused: the post as given can never be uploaded. */
const INVALID_METADATA = new Set([
  'invalidTitle',
  'invalidDescription',
  'invalidTags',
  'invalidCategoryId',
  'invalidVideoMetadata',
  'mediaBodyRequired',
  'forbiddenPrivacySetting',
  'forbiddenLicenseSetting',
  'invalidPublishAt',
]);

/**
 * A Google error answer as a `failed` outcome (networks/README.md "Common mapping", youtube.md §7),
 * `platformRawCode` = Google's reason (else the status). `nowMs` places the quota reset.
 */
export function failureOf(facts: GoogleErrorFacts, step: YouTubeStep, nowMs: number): FailedOutcome {
  const platformRawCode = facts.reason ?? String(facts.status);
  const fail = (failure: FailedOutcome['failure'], code: string, message: string): FailedOutcome => ({
    kind: 'failed',
    failure,
    code,
    message,
    platformRawCode,
  });
  const what = STEP_NAMES[step];
  const reason = facts.reason ?? '';
  if (facts.status === 401) {
    return fail('auth_rejected', 'TOKEN_REJECTED', `YouTube refused the account's access token at ${what}.`);
  }
  if (reason === 'quotaExceeded') {
    return {
      ...fail(
        'rate_limited',
        'RATE_LIMITED',
        "The service's daily YouTube API quota is used up; it resets at midnight Pacific time.",
      ),
      retryAfterSeconds: secondsUntilPacificMidnight(nowMs),
    };
  }
  if (reason === 'uploadLimitExceeded') {
    return {
      ...fail(
        'rate_limited',
        'RATE_LIMITED',
        "The channel reached YouTube's upload limit for the last 24 hours; try again a day later.",
      ),
      retryAfterSeconds: YOUTUBE_UPLOAD_LIMIT_RETRY_SECONDS,
    };
  }
  if (reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded' || facts.status === 429) {
    return {
      ...fail('rate_limited', 'RATE_LIMITED', 'YouTube asked for fewer requests for a while.'),
      retryAfterSeconds: YOUTUBE_RATE_LIMIT_RETRY_SECONDS,
    };
  }
  if (ACCOUNT_UNUSABLE.has(reason)) {
    return fail(
      'auth_revoked',
      'ACCOUNT_UNUSABLE',
      'The YouTube account is closed, suspended or has no channel: reconnect it with a channel.',
    );
  }
  if (INVALID_METADATA.has(reason)) {
    return fail(
      'permanent',
      'PLATFORM_REJECTED',
      `YouTube refused the video's title, description, tags or settings.`,
    );
  }
  if (facts.status === 413) {
    return fail('permanent', 'MEDIA_TOO_LARGE', 'YouTube refused the video: the file is too large.');
  }
  if (facts.status === 403) {
    return fail(
      'permanent',
      'PLATFORM_PERMISSION_DENIED',
      `YouTube refused ${what}: the account or the app lacks a permission it needs.`,
    );
  }
  if (facts.status >= 500) {
    return fail('transient', 'PLATFORM_ERROR', `YouTube failed with a server error at ${what}.`);
  }
  if (facts.status >= 400)
    return fail('permanent', 'PLATFORM_REJECTED', `YouTube refused ${what} as invalid.`);
  return fail('transient', 'PLATFORM_ERROR', `YouTube gave an unexpected answer at ${what}.`);
}

/** `status.failureReason` (processing failed): the file is the problem. */
export function processingFailure(reason: string | undefined): FailedOutcome {
  const raw = reason ?? 'failed';
  const code =
    raw === 'emptyFile' || raw === 'invalidFile' || raw === 'tooSmall' || raw === 'codec'
      ? 'MEDIA_INVALID'
      : 'MEDIA_PROCESSING_FAILED';
  return {
    kind: 'failed',
    failure: 'permanent',
    code,
    message:
      code === 'MEDIA_INVALID'
        ? 'YouTube could not process the video: the file is empty, too small, or in a format it cannot read.'
        : 'YouTube could not process the video.',
    platformRawCode: raw,
  };
}

/** `status.rejectionReason` (YouTube refused the video after upload). */
export function rejection(reason: string | undefined): FailedOutcome {
  const raw = reason ?? 'rejected';
  if (raw === 'duplicate') {
    return {
      kind: 'failed',
      failure: 'permanent',
      code: 'DUPLICATE_CONTENT',
      message: 'YouTube rejected the video as a duplicate of one already on the channel.',
      platformRawCode: raw,
    };
  }
  return {
    kind: 'failed',
    failure: 'permanent',
    code: 'PLATFORM_REJECTED',
    message: 'YouTube rejected the video (a copyright, length, terms or account reason).',
    platformRawCode: raw,
  };
}

/** Carries a step's failure up to `publish`, which adds the progress. Never leaves the connector. */
export class YouTubeStepFailed extends Error {
  override readonly name = 'YouTubeStepFailed';
  constructor(readonly outcome: FailedOutcome) {
    super(outcome.message);
  }
}
