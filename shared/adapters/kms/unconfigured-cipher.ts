import { ServiceUnavailableError } from '../../domain/errors.js';
import type { SecretCipher } from '../../ports/secret-cipher.js';

/** The cipher of a deployment with no secrets key: what needs one answers 503, saying why. */
export function makeUnconfiguredCipher(): SecretCipher {
  const refuse = async (): Promise<never> => {
    throw new ServiceUnavailableError(
      'Secret encryption is not configured on this deployment (SECRETS_KEY_ARN).',
    );
  };
  return { encrypt: refuse, decrypt: refuse };
}
