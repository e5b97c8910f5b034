import type { MediaKind } from '../domain/posts.js';

export interface FetchedMedia {
  bytes: Buffer;
  contentType: string;
  finalUrl: string;
}

/**
 * Fetches a public media URL safely (shared/adapters/http/). Fails with an error whose `code` says
 * why: media_url_blocked, media_url_unreachable, media_too_large, media_type_mismatch,
 * media_fetch_timeout, media_too_many_redirects.
 */
export type MediaFetcher = (url: string, expected: MediaKind) => Promise<FetchedMedia>;

/** The `code` of a fetch failure, or undefined for an error that is not one (a bug: rethrow it). */
export function fetchFailureCode(error: unknown): string | undefined {
  if (
    error instanceof Error &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('media_')
  ) {
    return error.code;
  }
  return undefined;
}
