import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  makeLocalSecretCipher,
  SECRET_KEY_FILE_NAME,
  SecretKeyFileError,
} from '../../../infra/local/stand-ins/local-secret-cipher.js';
import { type SecretContext, SecretDecryptionError } from '../../../shared/ports/secret-cipher.js';

const CONTEXT: SecretContext = {
  tenantId: 'ten_1',
  workspaceId: 'wks_1',
  purpose: 'webhook-signing-secret',
  recordId: 'whk_1',
};
const SECRET = 'whsec_c2VjcmV0LWJ5dGVzLWZvci10ZXN0aW5nLW9ubHktMzI';

/** The ciphertext with one byte of its binary body changed at `index`. */
function flipByte(ciphertext: string, index: number): string {
  const [version, body] = ciphertext.split('.');
  const bytes = Buffer.from(body ?? '', 'base64url');
  bytes[index] = (bytes[index] ?? 0) ^ 0x01;
  return `${version}.${bytes.toString('base64url')}`;
}

describe('local secret cipher (AES-256-GCM, key file in the data folder)', () => {
  let dataDir: string;
  let keyFile: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'local-secret-cipher-'));
    keyFile = join(dataDir, SECRET_KEY_FILE_NAME);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('decrypts what it encrypted, and the ciphertext does not contain the plaintext', async () => {
    // Prepare
    const cipher = makeLocalSecretCipher({ keyFile });

    // Act
    const ciphertext = await cipher.encrypt(SECRET, CONTEXT);

    // Assess
    expect(ciphertext).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(ciphertext).not.toContain(SECRET);
    expect(ciphertext).not.toContain(Buffer.from(SECRET).toString('base64url'));
    await expect(cipher.decrypt(ciphertext, CONTEXT)).resolves.toBe(SECRET);
  });

  it('round-trips the empty string and non-ASCII text', async () => {
    // Prepare
    const cipher = makeLocalSecretCipher({ keyFile });

    // Act
    const empty = await cipher.encrypt('', CONTEXT);
    const text = await cipher.encrypt('clé → 秘密 🔑', CONTEXT);

    // Assess
    await expect(cipher.decrypt(empty, CONTEXT)).resolves.toBe('');
    await expect(cipher.decrypt(text, CONTEXT)).resolves.toBe('clé → 秘密 🔑');
  });

  it('uses a fresh IV each time: one plaintext encrypts to different ciphertexts', async () => {
    // Prepare
    const cipher = makeLocalSecretCipher({ keyFile });

    // Act
    const first = await cipher.encrypt(SECRET, CONTEXT);
    const second = await cipher.encrypt(SECRET, CONTEXT);

    // Assess
    expect(first).not.toBe(second);
    const iv = (ciphertext: string) => Buffer.from(ciphertext.slice(3), 'base64url').subarray(0, 12);
    expect(iv(first).equals(iv(second))).toBe(false);
  });

  it.each([
    ['the IV', 0],
    ['the tag', 12],
    ['the encrypted bytes', 28],
  ])('refuses a ciphertext with one bit of %s changed', async (_part, index) => {
    // Prepare
    const cipher = makeLocalSecretCipher({ keyFile });
    const ciphertext = await cipher.encrypt(SECRET, CONTEXT);

    // Act
    const decrypting = cipher.decrypt(flipByte(ciphertext, index), CONTEXT);

    // Assess
    await expect(decrypting).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it.each([
    ['another tenant', { tenantId: 'ten_2' }],
    ['another workspace', { workspaceId: 'wks_2' }],
    ['another purpose', { purpose: 'oauth-token' as const }],
    ['another record', { recordId: 'whk_2' }],
  ])('refuses to decrypt under %s', async (_name, change) => {
    // Prepare
    const cipher = makeLocalSecretCipher({ keyFile });
    const ciphertext = await cipher.encrypt(SECRET, CONTEXT);

    // Act
    const decrypting = cipher.decrypt(ciphertext, { ...CONTEXT, ...change });

    // Assess
    await expect(decrypting).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('keeps no ambiguity between context fields: moving characters from one field to the next is refused', async () => {
    // Prepare
    const cipher = makeLocalSecretCipher({ keyFile });
    const ciphertext = await cipher.encrypt(SECRET, { ...CONTEXT, tenantId: 'ten_1', workspaceId: 'xwks_1' });

    // Act
    const decrypting = cipher.decrypt(ciphertext, { ...CONTEXT, tenantId: 'ten_1x', workspaceId: 'wks_1' });

    // Assess
    await expect(decrypting).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it.each(['', 'v1', 'v1.', 'v2.AAAA', 'v1.AAAA', 'v1.a.b', 'not a ciphertext'])(
    'refuses %j as not one of its ciphertexts',
    async (ciphertext) => {
      // Prepare
      const cipher = makeLocalSecretCipher({ keyFile });

      // Act
      const decrypting = cipher.decrypt(ciphertext, CONTEXT);

      // Assess
      await expect(decrypting).rejects.toBeInstanceOf(SecretDecryptionError);
    },
  );

  it('creates a 32-byte key file readable by its owner only', () => {
    // Act
    makeLocalSecretCipher({ keyFile });

    // Assess
    expect(readFileSync(keyFile)).toHaveLength(32);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('creates the data folder when it does not exist yet', async () => {
    // Prepare
    const nested = join(dataDir, 'a', 'b', SECRET_KEY_FILE_NAME);

    // Act
    const cipher = makeLocalSecretCipher({ keyFile: nested });

    // Assess
    expect(readFileSync(nested)).toHaveLength(32);
    await expect(cipher.decrypt(await cipher.encrypt(SECRET, CONTEXT), CONTEXT)).resolves.toBe(SECRET);
  });

  it('reuses the key after a restart: a new instance on the same file decrypts the old ciphertext', async () => {
    // Prepare
    const before = makeLocalSecretCipher({ keyFile });
    const ciphertext = await before.encrypt(SECRET, CONTEXT);
    const keyBefore = readFileSync(keyFile);

    // Act
    const after = makeLocalSecretCipher({ keyFile });

    // Assess
    await expect(after.decrypt(ciphertext, CONTEXT)).resolves.toBe(SECRET);
    expect(readFileSync(keyFile).equals(keyBefore)).toBe(true);
  });

  it('a cipher with another key file cannot decrypt', async () => {
    // Prepare
    const ciphertext = await makeLocalSecretCipher({ keyFile }).encrypt(SECRET, CONTEXT);
    const other = makeLocalSecretCipher({ keyFile: join(dataDir, 'other.key') });

    // Act
    const decrypting = other.decrypt(ciphertext, CONTEXT);

    // Assess
    await expect(decrypting).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('refuses to start on a key file of the wrong length, and leaves it as it is', () => {
    // Prepare
    writeFileSync(keyFile, 'too short');

    // Act
    const starting = () => makeLocalSecretCipher({ keyFile });

    // Assess
    expect(starting).toThrow(SecretKeyFileError);
    expect(readFileSync(keyFile, 'utf8')).toBe('too short');
  });
});
