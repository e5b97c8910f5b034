/**
 * Cookies are `Secure` wherever the dashboard is reached over HTTPS: every deployment. Only a
 * public base URL that says plain http (the local host) turns it off; none at all keeps it on.
 * A module of its own: the dashboard's cold start reads it without the use cases.
 */
export function secureCookiesFor(publicBaseUrl: string | undefined): boolean {
  return !publicBaseUrl?.startsWith('http://');
}
