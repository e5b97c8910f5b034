import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import type { SdkError } from '@smithy/types';
import { ServiceUnavailableError } from '../../domain/errors.js';

/** How soon a caller may try again when a dependency throttled us: it clears within seconds. */
export const THROTTLED_RETRY_AFTER_SECONDS = 1;
/** How soon a caller may try again when a dependency did not answer or failed on its side. */
export const UNREACHABLE_RETRY_AFTER_SECONDS = 5;

/**
 * A dependency's failure that is nobody's mistake and passes by itself: throttling, a 5xx of the
 * service, a connection refused, reset or timed out (after the SDK's own retries). Classified by
 * the AWS SDK's own rules (`@smithy/core/retry`, the ones its retry strategy uses), so DynamoDB,
 * S3, SQS and KMS errors are read the same way everywhere.
 */
export function isDependencyOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // The SDK's classifiers read only optional members (name, code, $metadata, $retryable, cause).
  const sdkError = error as SdkError;
  return isThrottlingError(sdkError) || isTransientError(sdkError) || isServerError(sdkError);
}

/**
 * The 503 a caller gets for a dependency outage (with Retry-After), or undefined for any other
 * error, which stays an internal error. The message names no dependency and carries nothing of
 * the cause: that goes to the log.
 */
export function asServiceUnavailable(error: unknown): ServiceUnavailableError | undefined {
  if (!isDependencyOutage(error)) return undefined;
  const throttled = isThrottlingError(error as SdkError);
  return new ServiceUnavailableError(
    throttled
      ? 'The service is briefly over its storage capacity. Retry after the Retry-After seconds; nothing was changed unless a later read shows it.'
      : 'The service cannot reach its storage right now. Retry after the Retry-After seconds; nothing was changed unless a later read shows it.',
    throttled ? THROTTLED_RETRY_AFTER_SECONDS : UNREACHABLE_RETRY_AFTER_SECONDS,
  );
}

/** What a log line needs of an outage: no stack, no request, just what failed and how. */
export function outageSummary(error: unknown): Record<string, unknown> {
  if (typeof error !== 'object' || error === null) return { error: String(error) };
  const { name, message, code } = error as { name?: unknown; message?: unknown; code?: unknown };
  const status = (error as SdkError).$metadata?.httpStatusCode;
  return {
    errorName: name,
    errorMessage: message,
    ...(typeof code === 'string' && { errorCode: code }),
    ...(status !== undefined && { httpStatusCode: status }),
  };
}
