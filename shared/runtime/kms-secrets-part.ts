import { makeKmsClient } from '../adapters/kms/client.js';
import { makeKmsSecretCipher } from '../adapters/kms/kms-secret-cipher.js';
import { makeUnconfiguredCipher } from '../adapters/kms/unconfigured-cipher.js';
import { traced } from '../adapters/observability/tracer.js';
import type { DepsPart } from './deps-parts.js';

/** Secrets encrypted with KMS when SECRETS_KEY_ARN is set (only functions granted the key learn it); 503 without. */
export const kmsSecretsPart: DepsPart = ({ config }) => ({
  secrets: config.secretsKeyArn
    ? makeKmsSecretCipher(traced(makeKmsClient({ region: config.region })), config.secretsKeyArn)
    : makeUnconfiguredCipher(),
});
