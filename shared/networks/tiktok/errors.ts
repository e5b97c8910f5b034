import type { PublishOutcome } from '../../ports/connector.js';
import type { TikTokAnswer } from './api.js';
import { TIKTOK_RATE_LIMIT_RETRY_SECONDS } from './limits.js';

export type FailedOutcome = Extract<PublishOutcome, { kind: 'failed' }>;
type Failure = FailedOutcome['failure'];

/** What a step was doing, for the message: TikTok's own text is never passed on. */
export type TikTokStep = 'creator' | 'init' | 'upload' | 'status';

const STEP_NAMES: Readonly<Record<TikTokStep, string>> = {
  creator: 'the creator check',
  init: 'the post request',
  upload: 'the video upload',
  status: 'the publish status check',
};

interface Mapped {
  failure: Failure;
  code: string;
  message: string;
  retryAfterSeconds?: number;
}

/**
 * `error.code` values with their own meaning (networks/tiktok.md §9); `platformRawCode` is always
 * TikTok's code, the message always ours.
 */
const BY_CODE: Readonly<Record<string, (what: string) => Mapped>> = {
  access_token_invalid: (what) => ({
    failure: 'auth_rejected',
    code: 'TOKEN_REJECTED',
    message: `TikTok refused the account's access token at ${what}.`,
  }),
  scope_not_authorized: (what) => permissionDenied(what),
  scope_permission_missed: (what) => permissionDenied(what),
  rate_limit_exceeded: () => ({
    failure: 'rate_limited',
    code: 'RATE_LIMITED',
    message: "TikTok's per-minute limit for this account's token was reached.",
    retryAfterSeconds: TIKTOK_RATE_LIMIT_RETRY_SECONDS,
  }),
  spam_risk_too_many_posts: () => ({
    failure: 'permanent',
    code: 'DAILY_QUOTA_EXCEEDED',
    message: "The creator reached TikTok's daily post limit; post again tomorrow.",
  }),
  spam_risk_user_banned_from_posting: () => ({
    failure: 'permanent',
    code: 'ACCOUNT_BANNED_FROM_POSTING',
    message: 'TikTok does not let this creator post at the moment.',
  }),
  spam_risk_text: () => spam(),
  spam_risk: () => spam(),
  spam_risk_too_many_pending_share: () => ({
    failure: 'permanent',
    code: 'TOO_MANY_PENDING_SHARES',
    message: 'The creator has too many unfinished TikTok shares; they must finish or discard them first.',
  }),
  reached_active_user_cap: () => ({
    failure: 'rate_limited',
    code: 'APP_USER_CAP_REACHED',
    message: "The app reached TikTok's daily cap of creators posting through it.",
    retryAfterSeconds: 15 * 60,
  }),
  unaudited_client_can_only_post_to_private_accounts: () => ({
    failure: 'permanent',
    code: 'APP_NOT_AUDITED',
    message:
      'TikTok refused the post: an app TikTok has not audited may only post to private accounts, as SELF_ONLY.',
  }),
  privacy_level_option_mismatch: () => privacyNotOffered(),
  url_ownership_unverified: () => ({
    failure: 'permanent',
    code: 'MEDIA_URL_UNVERIFIED',
    message: "TikTok refused the photos' addresses: their domain is not verified for the app.",
  }),
  invalid_file_upload: () => ({
    failure: 'permanent',
    code: 'MEDIA_REJECTED',
    message: 'TikTok refused the video file.',
  }),
  internal_error: (what) => serverError(what),
};

function permissionDenied(what: string): Mapped {
  return {
    failure: 'permanent',
    code: 'PLATFORM_PERMISSION_DENIED',
    message: `TikTok refused ${what}: the account did not grant a permission it needs (reconnect it).`,
  };
}

function spam(): Mapped {
  return {
    failure: 'permanent',
    code: 'CONTENT_REJECTED_AS_SPAM',
    message: 'TikTok refused the post as spam.',
  };
}

function serverError(what: string): Mapped {
  return {
    failure: 'transient',
    code: 'PLATFORM_ERROR',
    message: `TikTok failed with a server error at ${what}.`,
  };
}

export function privacyNotOffered(): Mapped {
  return {
    failure: 'permanent',
    code: 'PRIVACY_LEVEL_NOT_OFFERED',
    message: "The post's privacy level is not one TikTok offers this creator (see creator_info).",
  };
}

export function failed(mapped: Mapped, platformRawCode?: string): FailedOutcome {
  return { kind: 'failed', ...mapped, ...(platformRawCode !== undefined && { platformRawCode }) };
}

/** A TikTok error answer as a `failed` outcome (networks/README.md "Common mapping"). */
export function failureOf(answer: TikTokAnswer, step: TikTokStep): FailedOutcome {
  const what = STEP_NAMES[step];
  const known = BY_CODE[answer.code];
  if (known) return failed(known(what), answer.code);
  if (answer.status === 401)
    return failed(BY_CODE.access_token_invalid?.(what) ?? serverError(what), answer.code);
  if (answer.status === 429)
    return failed(BY_CODE.rate_limit_exceeded?.(what) ?? serverError(what), answer.code);
  if (answer.status === 413) {
    return failed(
      {
        failure: 'permanent',
        code: 'MEDIA_TOO_LARGE',
        message: 'TikTok refused the media: the file is too large.',
      },
      answer.code,
    );
  }
  if (answer.status >= 500) return failed(serverError(what), answer.code);
  if (answer.status >= 400 || answer.code === 'invalid_params') {
    return failed(
      { failure: 'permanent', code: 'PLATFORM_REJECTED', message: `TikTok refused ${what} as invalid.` },
      answer.code,
    );
  }
  return failed(
    { failure: 'transient', code: 'PLATFORM_ERROR', message: `TikTok gave an unexpected answer at ${what}.` },
    answer.code,
  );
}

/**
 * `fail_reason` of a FAILED publish (status fetch): the post was not published. Media checks are
 * permanent (the same file fails the same way); a pull TikTok could not make, or its own error,
 * may work on a new attempt.
 */
const FAIL_REASONS: Readonly<Record<string, Mapped>> = {
  file_format_check_failed: media('MEDIA_UNSUPPORTED_FORMAT', 'TikTok could not read the file format.'),
  duration_check_failed: media(
    'MEDIA_DURATION_INVALID',
    "The video's length is outside what TikTok allows this creator.",
  ),
  frame_rate_check_failed: media(
    'MEDIA_FRAME_RATE_INVALID',
    "The video's frame rate is outside TikTok's 23–60 fps.",
  ),
  picture_size_check_failed: media(
    'MEDIA_DIMENSIONS_INVALID',
    "The media's dimensions are outside what TikTok takes.",
  ),
  video_pull_failed: {
    failure: 'transient',
    code: 'MEDIA_FETCH_FAILED',
    message: 'TikTok could not download the video.',
  },
  photo_pull_failed: {
    failure: 'transient',
    code: 'MEDIA_FETCH_FAILED',
    message: 'TikTok could not download the photos.',
  },
  internal: {
    failure: 'transient',
    code: 'PLATFORM_ERROR',
    message: 'TikTok failed while processing the post.',
  },
  publish_cancelled: {
    failure: 'permanent',
    code: 'PUBLISH_CANCELLED',
    message: 'The post was cancelled on TikTok.',
  },
  auth_removed: {
    failure: 'auth_revoked',
    code: 'TOKEN_REVOKED',
    message: 'The creator removed the app’s access on TikTok before the post was published.',
  },
  spam_risk_too_many_posts: {
    failure: 'permanent',
    code: 'DAILY_QUOTA_EXCEEDED',
    message: "The creator reached TikTok's daily post limit; post again tomorrow.",
  },
  spam_risk_user_banned_from_posting: {
    failure: 'permanent',
    code: 'ACCOUNT_BANNED_FROM_POSTING',
    message: 'TikTok does not let this creator post at the moment.',
  },
  spam_risk_text: spam(),
  spam_risk: spam(),
};

function media(code: string, message: string): Mapped {
  return { failure: 'permanent', code, message };
}

export function failReasonOutcome(failReason: string | undefined): FailedOutcome {
  const reason = failReason ?? 'unknown';
  return failed(
    FAIL_REASONS[reason] ?? media('MEDIA_PROCESSING_FAILED', 'TikTok could not process the post.'),
    reason,
  );
}

/**
 * A step's failure, carried up to `publish`, which adds what was done so far. Thrown and caught
 * inside the connector only.
 */
export class TikTokStepFailed extends Error {
  override readonly name = 'TikTokStepFailed';
  constructor(readonly outcome: FailedOutcome) {
    super(outcome.message);
  }
}
