import { createHash, createPublicKey, type JsonWebKey, verify } from 'node:crypto';

/** A compact JWS read back: its header and claims, once its ES256 signature checked out. */
export interface VerifiedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

const decode = (part: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

/** The JWT's header and claims if it is ES256 and signed by `key` (or, absent, by its own header `jwk`). */
export function verifyEs256(token: string, key?: JsonWebKey): VerifiedJwt | undefined {
  const [head, body, signature] = token.split('.');
  if (!head || !body || !signature) return undefined;
  const header = decode(head);
  const claims = decode(body);
  if (!header || !claims || header.alg !== 'ES256') return undefined;
  const jwk = key ?? (header.jwk as JsonWebKey | undefined);
  if (!jwk || typeof jwk !== 'object' || 'd' in jwk) return undefined;
  try {
    const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
    const valid = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    return valid ? { header, claims } : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 7638 thumbprint of an EC public key. */
export function jwkThumbprint(jwk: JsonWebKey): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

export const sha256Base64Url = (text: string) => createHash('sha256').update(text).digest('base64url');
