import type { Reply } from '../shared/http.js';
import { type RouteContext, xrpcError } from './context.js';
import { jwkThumbprint, sha256Base64Url, verifyEs256 } from './jwt.js';

const MAX_PROOF_AGE_S = 300;

/**
 * A request's DPoP proof checked as RFC 9449 and the atproto profile say: an ES256 `dpop+jwt` with
 * its public `jwk`, `htm`/`htu` of this request, a fresh `iat`, a `jti` not seen before, the
 * server's current nonce (else `use_dpop_nonce`, in the server's own way: a 400 JSON body at the
 * authorization server, a 401 challenge at the PDS), and for a resource request `ath`, the hash of
 * the access token. The thumbprint of its key, or the refusal.
 */
export function checkDpop(
  context: RouteContext,
  server: 'authServer' | 'pds',
  accessToken?: string,
): { jkt: string } | { refusal: Reply } {
  const proof = context.headers.dpop;
  const refuse = (error: string, message: string): { refusal: Reply } => {
    if (server === 'authServer')
      return { refusal: { status: 400, json: { error, error_description: message } } };
    return {
      refusal: xrpcError(401, error === 'use_dpop_nonce' ? 'UseDpopNonce' : 'InvalidToken', message, {
        'www-authenticate': `DPoP error="${error}", error_description="${message}"`,
      }),
    };
  };
  if (typeof proof !== 'string') return refuse('invalid_dpop_proof', 'DPoP proof required');
  const verified = verifyEs256(proof);
  const claims = verified?.claims;
  if (verified?.header.typ !== 'dpop+jwt' || !claims)
    return refuse('invalid_dpop_proof', 'Invalid DPoP proof');
  const htu = `${context.baseUrl}${context.url.pathname}`;
  const now = context.settings.now() / 1000;
  if (claims.htm !== context.method || claims.htu !== htu)
    return refuse('invalid_dpop_proof', 'DPoP htm/htu mismatch');
  if (typeof claims.iat !== 'number' || Math.abs(now - claims.iat) > MAX_PROOF_AGE_S)
    return refuse('invalid_dpop_proof', 'DPoP proof too old');
  if (typeof claims.jti !== 'string' || context.store.usedJtis.has(claims.jti))
    return refuse('invalid_dpop_proof', 'DPoP jti replayed');
  if (claims.nonce !== context.store.nonces[server])
    return refuse('use_dpop_nonce', 'Authorization server requires nonce in DPoP proof');
  if (accessToken !== undefined && claims.ath !== sha256Base64Url(accessToken))
    return refuse('invalid_dpop_proof', 'DPoP ath mismatch');
  context.store.usedJtis.add(claims.jti);
  return { jkt: jwkThumbprint(verified.header.jwk as Parameters<typeof jwkThumbprint>[0]) };
}
