import { makeSafeFetcher, type SafeFetcherOptions } from '../adapters/http/safe-fetch.js';
import { MAX_BYTES_BY_KIND } from '../domain/media.js';
import type { MediaFetcher } from '../ports/media-fetcher.js';

/** How long one public media fetch may take in all (every redirect and the body). */
const FETCH_TIMEOUT_MS = 60_000;

/** The SSRF-safe fetcher with the service's limits: each kind's upload size cap, one minute. */
export function makeMediaFetcher(overrides: Partial<SafeFetcherOptions> = {}): MediaFetcher {
  return makeSafeFetcher({ maxBytes: MAX_BYTES_BY_KIND, timeoutMs: FETCH_TIMEOUT_MS, ...overrides });
}
