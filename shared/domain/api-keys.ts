import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'smcp_';
const API_KEY_PATTERN = /^smcp_[0-9a-f]{64}$/;

/** A new API key's plaintext: shown once to its creator, never stored. */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('hex')}`;
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** The only form in which a key is stored and looked up. */
export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

/** The last four characters, so an operator can tell keys apart without the secret. */
export function apiKeyHint(plaintext: string): string {
  return plaintext.slice(-4);
}
