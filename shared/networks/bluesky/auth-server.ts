import { createHash, createHmac } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type { AppCredentials } from '../../ports/app-credentials.js';
import { GrantRefusedError, OAuthUnavailableError } from '../../ports/network-oauth.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { clientSigningKey } from './dpop.js';
import { requestOptions } from './insecure.js';
import { derivedKey, isPrivateEcJwk, type PrivateEcJwk } from './keys.js';

const NETWORK = 'Bluesky';

/** The app as oauth4webapi knows it: its id is the URL of its client metadata document. */
export interface BlueskyClient {
  client: oauth.Client;
  /** private_key_jwt with the operator's ES256 key (the app's "secret"). */
  authentication: oauth.ClientAuth;
  key: PrivateEcJwk;
}

/** The operator's key, from the app's secret: a P-256 private JWK, as JSON. */
export function clientKeyOf(credentials: AppCredentials): PrivateEcJwk {
  let parsed: unknown;
  try {
    parsed = JSON.parse(credentials.clientSecret);
  } catch {
    parsed = undefined;
  }
  if (!isPrivateEcJwk(parsed)) {
    throw new OAuthUnavailableError('The BLUESKY app secret is not an ES256 (P-256) private key as a JWK.');
  }
  return parsed;
}

export async function blueskyClient(credentials: AppCredentials): Promise<BlueskyClient> {
  const key = clientKeyOf(credentials);
  return {
    client: { client_id: credentials.clientId, token_endpoint_auth_method: 'private_key_jwt' },
    authentication: oauth.PrivateKeyJwt(await clientSigningKey(key)),
    key,
  };
}

/** The authorization server's metadata (`/.well-known/oauth-authorization-server` of `issuer`). */
export async function discover(
  issuer: string,
  fetchImpl: typeof fetch | undefined,
  signal: AbortSignal,
): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  return asOAuthError(async () => {
    const response = await oauth.discoveryRequest(url, {
      algorithm: 'oauth2',
      ...requestOptions(issuer, fetchImpl, signal),
    });
    return oauth.processDiscoveryResponse(url, response);
  });
}

/**
 * The material of the connect's DPoP key: the PKCE challenge (the PAR request has it, and the token
 * request recomputes it from the verifier), keyed with the operator's secret key, so nobody who
 * saw the challenge can derive the key.
 */
export function connectKey(clientKey: PrivateEcJwk, codeChallenge: string): PrivateEcJwk {
  return derivedKey(
    createHmac('sha256', Buffer.from(clientKey.d, 'base64url')).update(codeChallenge).digest(),
  );
}

/** S256 of a PKCE verifier (RFC 7636), as the connect flow computed the challenge. */
export function challengeOf(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier).digest('base64url');
}

/**
 * Runs an exchange with the authorization server and says what became of it in the OAuth port's
 * terms: a refused grant (invalid_grant) is GrantRefusedError, anything else that went wrong is
 * OAuthUnavailableError with the server's error code only, never its description.
 */
export async function asOAuthError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GrantRefusedError || error instanceof OAuthUnavailableError) throw error;
    if (error instanceof oauth.ResponseBodyError) {
      if (error.error === 'invalid_grant') throw new GrantRefusedError(error.error);
      throw new OAuthUnavailableError(`${NETWORK} refused the request (HTTP ${error.status}).`, error.error);
    }
    if (error instanceof RequestNotSentError || error instanceof NoAnswerError) {
      throw new OAuthUnavailableError(`${NETWORK} could not be reached.`, error.code);
    }
    throw new OAuthUnavailableError(`${NETWORK} did not answer usably.`, 'bad_answer');
  }
}
