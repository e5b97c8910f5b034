/** What a secret is kept for; part of its context, so a token never decrypts as a webhook secret. */
export type SecretPurpose = 'webhook-signing-secret' | 'oauth-token';

/**
 * The record a secret belongs to (infra/constructs/secrets-key.ts states the rule). Every
 * ciphertext is bound to it: decrypting with any other context fails, so a ciphertext copied onto
 * another tenant's, workspace's or record's item cannot be read. Built from the record being
 * written or read, never from the request alone.
 */
export interface SecretContext {
  tenantId: string;
  workspaceId: string;
  purpose: SecretPurpose;
  /** The webhook id for a signing secret, the account id for a token. */
  recordId: string;
}

/** A ciphertext that does not decrypt under the given context: moved, altered, or not one of ours. */
export class SecretDecryptionError extends Error {
  override readonly name = 'SecretDecryptionError';
  constructor(options?: { cause: unknown }) {
    super('The secret does not decrypt under this context.', options);
  }
}

/**
 * Encrypts the secrets the service keeps in its tables (KMS in AWS; AES-256-GCM with a key file on
 * the local host). The ciphertext is an opaque string, safe to store; the plaintext is never
 * stored or logged.
 */
export interface SecretCipher {
  encrypt(plaintext: string, context: SecretContext): Promise<string>;
  /** SecretDecryptionError when the ciphertext does not belong to this context. */
  decrypt(ciphertext: string, context: SecretContext): Promise<string>;
}

/** The context as one flat string map, in a fixed order: KMS's EncryptionContext, the local AAD. */
export function contextEntries(context: SecretContext): [string, string][] {
  return [
    ['tenantId', context.tenantId],
    ['workspaceId', context.workspaceId],
    ['purpose', context.purpose],
    ['recordId', context.recordId],
  ];
}
