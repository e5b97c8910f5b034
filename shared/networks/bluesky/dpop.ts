import * as oauth from 'oauth4webapi';
import type { PrivateEcJwk } from './keys.js';

const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

type KeyPair = Parameters<typeof oauth.DPoP>[1];

/** The WebCrypto pair of a session's key, as oauth4webapi signs DPoP proofs with. */
export async function cryptoKeyPair(key: PrivateEcJwk): Promise<KeyPair> {
  const { kty, crv, x, y, d } = key;
  const [privateKey, publicKey] = await Promise.all([
    crypto.subtle.importKey('jwk', { kty, crv, x, y, d }, ES256, false, ['sign']),
    crypto.subtle.importKey('jwk', { kty, crv, x, y }, ES256, true, ['verify']),
  ]);
  return { privateKey, publicKey };
}

/** The operator's client key (the app secret) as oauth4webapi's private_key_jwt signs with it. */
export async function clientSigningKey(key: PrivateEcJwk): Promise<oauth.PrivateKey> {
  const { kty, crv, x, y, d } = key;
  const cryptoKey = await crypto.subtle.importKey('jwk', { kty, crv, x, y, d }, ES256, false, ['sign']);
  return { key: cryptoKey, ...(key.kid && { kid: key.kid }) };
}

/**
 * A DPoP handle for one session's key: it remembers each server's latest `DPoP-Nonce`, so a
 * request after the first one of an invocation carries it. A stale or missing nonce is answered
 * `use_dpop_nonce`, and the request is made once more with the new one (research §1a "DPoP").
 */
export async function dpopHandle(client: oauth.Client, key: PrivateEcJwk): Promise<oauth.DPoPHandle> {
  return oauth.DPoP(client, await cryptoKeyPair(key));
}

/** Runs `attempt` once more when the server asked for a (new) DPoP nonce: not an auth failure. */
export async function withNonceRetry<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (oauth.isDPoPNonceError(error)) return attempt();
    throw error;
  }
}
