import type { PublishOutcome } from '../../ports/connector.js';

export type FailedOutcome = Extract<PublishOutcome, { kind: 'failed' }>;

/** A publish that failed for certain: nothing was posted, so the worker may retry or give up. */
export const failed = (
  failure: FailedOutcome['failure'],
  code: string,
  message: string,
  extra: Partial<FailedOutcome> = {},
): FailedOutcome => ({ kind: 'failed', failure, code, message, ...extra });

/** The account has no access token: the user must reconnect it. */
export function tokenMissing(network: string): FailedOutcome {
  return failed(
    'auth_rejected',
    'TOKEN_MISSING',
    `The ${network} account has no access token to publish with.`,
  );
}

/** The post's options for this network cannot be read: no retry makes them readable. */
export function optionsUnreadable(network: string): FailedOutcome {
  return failed(
    'permanent',
    'PLATFORM_OPTIONS_INVALID',
    `The post has ${network} options this connector cannot read.`,
  );
}
