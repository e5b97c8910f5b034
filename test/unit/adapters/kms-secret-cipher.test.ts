import {
  DecryptCommand,
  DisabledException,
  EncryptCommand,
  IncorrectKeyException,
  InvalidCiphertextException,
  KMSClient,
} from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeKmsSecretCipher } from '../../../shared/adapters/kms/kms-secret-cipher.js';
import { type SecretContext, SecretDecryptionError } from '../../../shared/ports/secret-cipher.js';

const KEY_ID = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const CONTEXT: SecretContext = {
  tenantId: 'ten_1',
  workspaceId: 'wks_1',
  purpose: 'webhook-signing-secret',
  recordId: 'whk_1',
};
const EXPECTED_ENCRYPTION_CONTEXT = {
  tenantId: 'ten_1',
  workspaceId: 'wks_1',
  purpose: 'webhook-signing-secret',
  recordId: 'whk_1',
};
const BLOB = Uint8Array.from([1, 2, 3, 250, 251, 252]);

const kmsMock = mockClient(KMSClient);
const cipher = makeKmsSecretCipher(new KMSClient({ region: 'eu-west-1' }), KEY_ID);

describe('makeKmsSecretCipher', () => {
  beforeEach(() => {
    kmsMock.reset();
  });

  it('encrypts under the configured key with the whole context as EncryptionContext, and returns the blob as base64', async () => {
    // Prepare
    kmsMock.on(EncryptCommand).resolves({ CiphertextBlob: BLOB, KeyId: KEY_ID });

    // Act
    const ciphertext = await cipher.encrypt('whsec_plain', CONTEXT);

    // Assess
    const calls = kmsMock.commandCalls(EncryptCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      KeyId: KEY_ID,
      Plaintext: Buffer.from('whsec_plain', 'utf8'),
      EncryptionContext: EXPECTED_ENCRYPTION_CONTEXT,
    });
    expect(ciphertext).toBe(Buffer.from(BLOB).toString('base64'));
  });

  it('decrypts with the same key and context, sending the stored blob back as bytes', async () => {
    // Prepare
    kmsMock.on(DecryptCommand).resolves({ Plaintext: Buffer.from('whsec_plain', 'utf8'), KeyId: KEY_ID });

    // Act
    const plaintext = await cipher.decrypt(Buffer.from(BLOB).toString('base64'), CONTEXT);

    // Assess
    expect(plaintext).toBe('whsec_plain');
    const calls = kmsMock.commandCalls(DecryptCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      KeyId: KEY_ID,
      CiphertextBlob: Buffer.from(BLOB),
      EncryptionContext: EXPECTED_ENCRYPTION_CONTEXT,
    });
  });

  it('builds the EncryptionContext from the record being read: another tenant sends another context', async () => {
    // Prepare
    kmsMock.on(DecryptCommand).resolves({ Plaintext: Buffer.from('x'), KeyId: KEY_ID });

    // Act
    await cipher.decrypt('AQID', { ...CONTEXT, tenantId: 'ten_2', recordId: 'whk_2' });

    // Assess
    expect(kmsMock.commandCalls(DecryptCommand)[0]?.args[0].input.EncryptionContext).toEqual({
      ...EXPECTED_ENCRYPTION_CONTEXT,
      tenantId: 'ten_2',
      recordId: 'whk_2',
    });
  });

  it.each([
    ['InvalidCiphertextException (another context, an altered blob)', InvalidCiphertextException],
    ['IncorrectKeyException (another key)', IncorrectKeyException],
  ])('answers %s with SecretDecryptionError', async (_name, Exception) => {
    // Prepare
    kmsMock.on(DecryptCommand).rejects(new Exception({ message: 'refused', $metadata: {} }));

    // Act
    const decrypting = cipher.decrypt('AQID', CONTEXT);

    // Assess
    await expect(decrypting).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('lets any other KMS error (a disabled key) reach the caller unchanged: it is not a bad ciphertext', async () => {
    // Prepare
    const denied = new DisabledException({ message: 'the key is disabled', $metadata: {} });
    kmsMock.on(DecryptCommand).rejects(denied);

    // Act
    const decrypting = cipher.decrypt('AQID', CONTEXT);

    // Assess
    await expect(decrypting).rejects.toBe(denied);
  });

  it.each(['', 'not base64!', 'AQI', 'AQID\n'])(
    'refuses %j as not one of its ciphertexts without calling KMS',
    async (ciphertext) => {
      // Act
      const decrypting = cipher.decrypt(ciphertext, CONTEXT);

      // Assess
      await expect(decrypting).rejects.toBeInstanceOf(SecretDecryptionError);
      expect(kmsMock.commandCalls(DecryptCommand)).toHaveLength(0);
    },
  );

  it('lets an Encrypt error reach the caller', async () => {
    // Prepare
    const denied = new DisabledException({ message: 'the key is disabled', $metadata: {} });
    kmsMock.on(EncryptCommand).rejects(denied);

    // Act
    const encrypting = cipher.encrypt('whsec_plain', CONTEXT);

    // Assess
    await expect(encrypting).rejects.toBe(denied);
  });
});
