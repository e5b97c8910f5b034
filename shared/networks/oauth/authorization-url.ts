import type { AuthorizationUrlRequest } from '../../ports/network-oauth.js';

export interface ConsentPage {
  url: string;
  scopes: readonly string[];
  /** A space (RFC 6749 §3.3) unless the network wants a comma. */
  scopeDelimiter: ' ' | ',';
  /** client_id, or the network's own name for it (TikTok's client_key). */
  clientIdParameter: string;
  /** The network's own parameters, in the order given. */
  parameters: ReadonlyArray<readonly [string, string]>;
}

/**
 * The consent page's address as RFC 6749 §4.1.1 and RFC 7636 §4.3 write it: response_type,
 * client_id, redirect_uri, scope and state, then the network's own parameters in the order given,
 * then the PKCE challenge when the flow has one.
 */
export function authorizationUrl(page: ConsentPage, request: AuthorizationUrlRequest): string {
  const url = new URL(page.url);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set(page.clientIdParameter, request.clientId);
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('scope', page.scopes.join(page.scopeDelimiter));
  url.searchParams.set('state', request.state);
  for (const [name, value] of page.parameters) url.searchParams.set(name, value);
  if (request.codeChallenge) {
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}
