import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  contextEntries,
  type SecretCipher,
  type SecretContext,
  SecretDecryptionError,
} from '../../../shared/ports/secret-cipher.js';

const KEY_BYTES = 32;
/** 96 bits: GCM's own nonce size; a fresh random one for every encryption. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Names the format, so a later one can be told apart. */
const VERSION = 'v1';

/** The key file's name in the local host's data folder. */
export const SECRET_KEY_FILE_NAME = 'secrets.key';

/** A key file that exists but cannot be the key this stand-in writes: named, so it can be fixed. */
export class SecretKeyFileError extends Error {
  override readonly name = 'SecretKeyFileError';
  constructor(readonly path: string) {
    super(
      `${path} is not a ${KEY_BYTES}-byte key. Restore it (secrets encrypted with it need it) or delete it.`,
    );
  }
}

/**
 * The key, generated once and kept in `path` (readable by its owner only) so that secrets stored
 * before a restart still decrypt after it. Written to a temporary file and linked into place, which
 * fails if the file exists: two hosts starting at once end up sharing the first one's key, and a
 * crash never leaves half a key behind.
 */
function loadOrCreateKey(path: string): Buffer {
  try {
    return readKey(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  return readKey(path);
}

function readKey(path: string): Buffer {
  const key = readFileSync(path);
  if (key.length !== KEY_BYTES) throw new SecretKeyFileError(path);
  return key;
}

/** The context as additional authenticated data: a ciphertext only opens under the same context. */
function additionalData(context: SecretContext): Buffer {
  return Buffer.from(JSON.stringify(contextEntries(context)), 'utf8');
}

/**
 * The local host's stand-in for KMS (docs/architecture.md#the-local-host-and-aws): AES-256-GCM
 * under a key kept in the data folder, with the record's context bound in as additional
 * authenticated data, as KMS binds its EncryptionContext.
 * Ciphertext: `v1.` + base64url(IV ‖ tag ‖ encrypted bytes).
 */
export function makeLocalSecretCipher(options: { keyFile: string }): SecretCipher {
  const key = loadOrCreateKey(options.keyFile);

  return {
    async encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(additionalData(context));
      const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url')}`;
    },

    async decrypt(ciphertext, context) {
      const [version, body, ...rest] = ciphertext.split('.');
      if (version !== VERSION || body === undefined || rest.length > 0) throw new SecretDecryptionError();
      const bytes = Buffer.from(body, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretDecryptionError();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(additionalData(context));
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]);
        return plain.toString('utf8');
      } catch (error) {
        // GCM's tag check failed: another context, another key, or altered bytes.
        throw new SecretDecryptionError({ cause: error });
      }
    },
  };
}
