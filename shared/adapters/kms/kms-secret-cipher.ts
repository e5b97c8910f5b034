import {
  DecryptCommand,
  EncryptCommand,
  IncorrectKeyException,
  InvalidCiphertextException,
  type KMSClient,
} from '@aws-sdk/client-kms';
import {
  contextEntries,
  type SecretCipher,
  type SecretContext,
  SecretDecryptionError,
} from '../../ports/secret-cipher.js';

/** Standard base64 with its padding, as this adapter writes it; anything else is not one of ours. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Secrets encrypted by KMS under one key, each bound to its record by the EncryptionContext: KMS
 * refuses to decrypt under any other context, and CloudTrail records the context of every call.
 * Secrets here are short (a webhook secret, an OAuth token: far below KMS's 4 KB), so KMS encrypts
 * them directly, with no data key to manage.
 */
export function makeKmsSecretCipher(client: KMSClient, keyId: string): SecretCipher {
  const encryptionContext = (context: SecretContext) => Object.fromEntries(contextEntries(context));

  return {
    async encrypt(plaintext, context) {
      const { CiphertextBlob } = await client.send(
        new EncryptCommand({
          KeyId: keyId,
          Plaintext: Buffer.from(plaintext, 'utf8'),
          EncryptionContext: encryptionContext(context),
        }),
      );
      if (!CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext.');
      return Buffer.from(CiphertextBlob).toString('base64');
    },

    async decrypt(ciphertext, context) {
      if (ciphertext.length === 0 || !BASE64.test(ciphertext)) throw new SecretDecryptionError();
      try {
        const { Plaintext } = await client.send(
          new DecryptCommand({
            // Naming the key makes KMS refuse a ciphertext made under any other key.
            KeyId: keyId,
            CiphertextBlob: Buffer.from(ciphertext, 'base64'),
            EncryptionContext: encryptionContext(context),
          }),
        );
        if (!Plaintext) throw new Error('KMS Decrypt returned no plaintext.');
        return Buffer.from(Plaintext).toString('utf8');
      } catch (error) {
        // Another context, an altered blob or another key; throttling and access errors pass through.
        if (error instanceof InvalidCiphertextException || error instanceof IncorrectKeyException)
          throw new SecretDecryptionError({ cause: error });
        throw error;
      }
    },
  };
}
