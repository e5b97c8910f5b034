import { createHash, randomBytes } from 'node:crypto';

/** A bearer secret (session cookie, one-time link): 32 random bytes, base64url (43 characters). */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether a presented value could be one of our tokens: anything else is refused without a read. */
export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** What the store keeps instead of the secret. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
