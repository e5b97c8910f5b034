import type { AppCredentials } from '../../ports/app-credentials.js';

/** What every network's OAuth client needs besides its endpoints. */
export interface OAuthClientDeps {
  /** The app's client id and secret, read when a grant is asked for (they may be rotated). */
  appCredentials(): Promise<AppCredentials | undefined>;
  fetch?: typeof fetch;
  /** Epoch milliseconds, for expiry times; Date.now by default. */
  now?: () => number;
}
