import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/** The password rule: long enough to resist guessing, short enough to hash cheaply. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;

/**
 * scrypt's cost: N = 2^15, r = 8, p = 1 needs 128·N·r = 32 MiB for one hash, which fits the
 * smallest Lambda comfortably; `maxmem` must be above that (Node's default is exactly 32 MiB).
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Refuses a stored hash asking for more than this, so a tampered record cannot exhaust memory. */
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: MAX_MEMORY };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** What is wrong with a new password, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  return undefined;
}

/** A self-describing hash: `scrypt$N$r$p$<salt>$<hash>` (base64url), so the cost can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  cost: { N: number; r: number; p: number };
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | undefined {
  const [scheme, n, r, p, salt, key, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || !salt || !key) return undefined;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const sane =
    Number.isInteger(cost.N) &&
    cost.N > 1 &&
    (cost.N & (cost.N - 1)) === 0 &&
    Number.isInteger(cost.r) &&
    cost.r > 0 &&
    Number.isInteger(cost.p) &&
    cost.p > 0 &&
    128 * cost.N * cost.r < MAX_MEMORY;
  if (!sane) return undefined;
  return { cost, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

/**
 * Whether `password` matches the stored hash. Without a hash (unknown user, no password set yet)
 * it still spends one scrypt, so the answer's timing does not tell whether the email is a user's.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const parsed = stored ? parse(stored) : undefined;
  if (!parsed) {
    await derive(password, randomBytes(SALT_LENGTH), COST);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.cost);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}
