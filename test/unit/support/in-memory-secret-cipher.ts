import {
  contextEntries,
  type SecretCipher,
  type SecretContext,
  SecretDecryptionError,
} from '../../../shared/ports/secret-cipher.js';

/**
 * A SecretCipher for unit tests: the ciphertext is an opaque handle (never the plaintext), and it
 * decrypts only under the context it was made with, as KMS's encryption context requires.
 */
export class InMemorySecretCipher implements SecretCipher {
  private readonly sealed = new Map<string, { plaintext: string; context: SecretContext }>();
  /** Every context encrypt was called with, in order. */
  readonly encryptedFor: SecretContext[] = [];

  async encrypt(plaintext: string, context: SecretContext): Promise<string> {
    const ciphertext = `sealed-${this.sealed.size + 1}`;
    this.sealed.set(ciphertext, { plaintext, context: { ...context } });
    this.encryptedFor.push({ ...context });
    return ciphertext;
  }

  async decrypt(ciphertext: string, context: SecretContext): Promise<string> {
    const entry = this.sealed.get(ciphertext);
    if (!entry || JSON.stringify(contextEntries(entry.context)) !== JSON.stringify(contextEntries(context)))
      throw new SecretDecryptionError();
    return entry.plaintext;
  }
}
