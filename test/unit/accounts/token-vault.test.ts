import { describe, expect, it } from 'vitest';
import type { TokenSet } from '../../../shared/ports/network-oauth.js';
import { SecretDecryptionError } from '../../../shared/ports/secret-cipher.js';
import { openTokens, sealTokens, tokenContext } from '../../../shared/services/accounts/token-vault.js';
import { InMemorySecretCipher } from '../support/in-memory-secret-cipher.js';

const owner = {
  tenantId: 'ten_01JD0000000000000000000000',
  workspaceId: 'wks_01JD0000000000000000000000',
  accountId: 'acc_01JD0000000000000000000000',
};
const tokens: TokenSet = {
  accessToken: 'access-1',
  refreshToken: 'refresh-1',
  expiresAt: '2030-01-01T14:00:00.000Z',
  scopes: ['tweet.write', 'offline.access'],
};

describe('token vault', () => {
  it('seals a token set for its account and opens it again', async () => {
    const cipher = new InMemorySecretCipher();
    const sealed = await sealTokens(cipher, owner, tokens);
    expect(sealed).not.toContain('access-1');
    expect(cipher.encryptedFor).toEqual([
      {
        tenantId: owner.tenantId,
        workspaceId: owner.workspaceId,
        purpose: 'oauth-token',
        recordId: owner.accountId,
      },
    ]);
    expect(await openTokens(cipher, owner, sealed)).toEqual(tokens);
  });

  it('keeps only the fields of a token set', async () => {
    const cipher = new InMemorySecretCipher();
    const extra = { ...tokens, idToken: 'not-ours' } as TokenSet;
    const sealed = await sealTokens(cipher, owner, extra);
    expect(await cipher.decrypt(sealed, tokenContext(owner))).not.toContain('not-ours');
  });

  it("refuses another account's ciphertext", async () => {
    const cipher = new InMemorySecretCipher();
    const sealed = await sealTokens(cipher, owner, tokens);
    await expect(
      openTokens(cipher, { ...owner, accountId: 'acc_01JD0000000000000000000001' }, sealed),
    ).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('refuses a ciphertext that does not hold a token set, without showing its contents', async () => {
    const cipher = new InMemorySecretCipher();
    const notJson = await cipher.encrypt('secret-but-not-json', tokenContext(owner));
    const noAccess = await cipher.encrypt(
      JSON.stringify({ refreshToken: 'r', scopes: [] }),
      tokenContext(owner),
    );
    for (const sealed of [notJson, noAccess]) {
      const error = await openTokens(cipher, owner, sealed).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SecretDecryptionError);
      expect(String(error)).not.toContain('secret-but-not-json');
    }
  });
});
