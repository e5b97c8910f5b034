import * as z from 'zod';
import type { Account } from '../../domain/tenancy.js';
import type { TokenSet } from '../../ports/network-oauth.js';
import { type SecretCipher, type SecretContext, SecretDecryptionError } from '../../ports/secret-cipher.js';

/** The account a token set belongs to: its ciphertext is bound to exactly this record. */
export type TokenOwner = Pick<Account, 'tenantId' | 'workspaceId' | 'accountId'>;

const storedTokenSet = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  refreshExpiresAt: z.iso.datetime({ offset: true }).optional(),
  scopes: z.array(z.string()),
});

/** The encryption context of an account's tokens (shared/ports/secret-cipher.ts states the rule). */
export function tokenContext(owner: TokenOwner): SecretContext {
  return {
    tenantId: owner.tenantId,
    workspaceId: owner.workspaceId,
    purpose: 'oauth-token',
    recordId: owner.accountId,
  };
}

/**
 * The one way tokens are written: the TokenSet as JSON, encrypted for its account (the account's
 * `encryptedTokens`). Only the fields of a TokenSet are kept, so nothing else a provider returned
 * is stored by accident.
 */
export async function sealTokens(cipher: SecretCipher, owner: TokenOwner, tokens: TokenSet): Promise<string> {
  const kept: TokenSet = {
    accessToken: tokens.accessToken,
    ...(tokens.refreshToken && { refreshToken: tokens.refreshToken }),
    ...(tokens.expiresAt && { expiresAt: tokens.expiresAt }),
    ...(tokens.refreshExpiresAt && { refreshExpiresAt: tokens.refreshExpiresAt }),
    scopes: [...tokens.scopes],
  };
  return cipher.encrypt(JSON.stringify(kept), tokenContext(owner));
}

/**
 * The one way tokens are read: decrypted under the account's context, and checked to be a token
 * set. SecretDecryptionError when the ciphertext is not this account's, or what it holds is not a
 * token set (the plaintext is never part of the error).
 */
export async function openTokens(
  cipher: SecretCipher,
  owner: TokenOwner,
  encryptedTokens: string,
): Promise<TokenSet> {
  const plaintext = await cipher.decrypt(encryptedTokens, tokenContext(owner));
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext);
  } catch {
    throw new SecretDecryptionError();
  }
  const result = storedTokenSet.safeParse(parsed);
  if (!result.success) throw new SecretDecryptionError();
  const tokens = result.data;
  return {
    accessToken: tokens.accessToken,
    ...(tokens.refreshToken && { refreshToken: tokens.refreshToken }),
    ...(tokens.expiresAt && { expiresAt: tokens.expiresAt }),
    ...(tokens.refreshExpiresAt && { refreshExpiresAt: tokens.refreshExpiresAt }),
    scopes: tokens.scopes,
  };
}
