import type { AuthorizationUrlRequest } from '../../ports/network-oauth.js';

/**
 * The consent page's address as RFC 6749 §4.1.1 and RFC 7636 §4.3 write it: response_type,
 * client_id, redirect_uri, space-separated scope and state, then the network's own parameters in
 * the order given, then the PKCE challenge when the flow has one.
 */
export function authorizationUrl(
  consentPage: string,
  request: AuthorizationUrlRequest,
  scopes: readonly string[],
  extra: ReadonlyArray<readonly [string, string]> = [],
): string {
  const url = new URL(consentPage);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', request.clientId);
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('scope', scopes.join(' '));
  url.searchParams.set('state', request.state);
  for (const [name, value] of extra) url.searchParams.set(name, value);
  if (request.codeChallenge) {
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}
