import type { AppCredentials } from '../../ports/app-credentials.js';
import type { ClientMetadata, ClientMetadataRequest } from '../../ports/network-oauth.js';
import { clientKeyOf } from './auth-server.js';
import { publicJwk } from './keys.js';
import { BLUESKY_SCOPES } from './limits.js';

/**
 * Our client metadata document for AT Protocol OAuth (https://atproto.com/specs/oauth "Clients"),
 * a confidential web client: `client_id` is the URL it is served at (the BLUESKY app's client id,
 * which the operator sets to it), private_key_jwt with ES256, DPoP-bound tokens; the JWKS holds the
 * public half of the operator's key (the app's secret), with its `kid`.
 */
export function clientMetadataOf(
  credentials: AppCredentials,
  request: ClientMetadataRequest,
): ClientMetadata {
  const key = clientKeyOf(credentials);
  return {
    document: {
      client_id: credentials.clientId,
      application_type: 'web',
      client_name: 'Social publishing API',
      client_uri: request.publicBaseUrl,
      redirect_uris: [request.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: BLUESKY_SCOPES.join(' '),
      dpop_bound_access_tokens: true,
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      jwks_uri: request.jwksUrl,
    },
    jwks: { keys: [{ ...publicJwk(key), use: 'sig', alg: 'ES256' }] },
  };
}
