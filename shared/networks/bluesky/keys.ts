import { createECDH, type JsonWebKey } from 'node:crypto';

/** A P-256 private key as a JWK (what the token bundle and the operator's secret hold). */
export interface PrivateEcJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  d: string;
  kid?: string;
}

/** The order of P-256: a private scalar is in [1, n - 1]. */
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/** A P-256 key from 32 bytes of secret material (reduced into the curve's range). */
function keyFromScalar(material: Buffer): PrivateEcJwk {
  const scalar = (BigInt(`0x${material.toString('hex')}`) % (P256_ORDER - 1n)) + 1n;
  const d = Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  return {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
    d: d.toString('base64url'),
  };
}

/** A P-256 key derived from 32 bytes of secret material: the same material gives the same key. */
export function derivedKey(material: Buffer): PrivateEcJwk {
  return keyFromScalar(material);
}

export function publicJwk(key: PrivateEcJwk): JsonWebKey {
  return { kty: key.kty, crv: key.crv, x: key.x, y: key.y, ...(key.kid && { kid: key.kid }) };
}

/** Whether a value read back (an operator's secret, a token bundle) is a P-256 private JWK. */
export function isPrivateEcJwk(value: unknown): value is PrivateEcJwk {
  if (typeof value !== 'object' || value === null) return false;
  const key = value as Record<string, unknown>;
  return (
    key.kty === 'EC' &&
    key.crv === 'P-256' &&
    typeof key.x === 'string' &&
    typeof key.y === 'string' &&
    typeof key.d === 'string'
  );
}
