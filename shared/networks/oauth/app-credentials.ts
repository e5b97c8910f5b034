import type { AppCredentials } from '../../ports/app-credentials.js';
import { OAuthUnavailableError } from '../../ports/network-oauth.js';

/** The app's client credentials, or OAuthUnavailableError: without them no grant can be asked for. */
export async function requireAppCredentials(
  appCredentials: () => Promise<AppCredentials | undefined>,
  appName: string,
): Promise<AppCredentials> {
  const app = await appCredentials();
  if (!app) throw new OAuthUnavailableError(`The ${appName} app has no client credentials configured.`);
  return app;
}
