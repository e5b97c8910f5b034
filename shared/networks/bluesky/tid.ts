import { createHash } from 'node:crypto';

/** https://atproto.com/specs/tid: 13 characters of base32-sortable. */
export const TID_PATTERN = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';

function base32Sortable(value: bigint, length: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < length; i += 1) {
    out = ALPHABET[Number(rest % 32n)] + out;
    rest /= 32n;
  }
  return out;
}

/** A TID of `micros` (53 bits) and `clockId` (10 bits). */
export function tidOf(micros: bigint, clockId: number): string {
  return base32Sortable(micros, 11) + base32Sortable(BigInt(clockId & 1023), 2);
}

/**
 * The record key of a post's item, chosen by us before the first attempt (research §3): a TID of
 * the time the post was due, in microseconds, made unique by 20 bits of a hash of the post's client
 * reference (the microseconds below the millisecond, and the clock id), plus the item's index.
 * Derived, so that even a worker that died before storing its progress posts the item, on a
 * retry, under the same key, which the PDS refuses to create twice, and which a look-up reads.
 */
export function itemRkey(clientReference: string, dueAtMs: number, index: number): string {
  const hash = createHash('sha256').update(clientReference).digest();
  const below = hash.readUInt16BE(0) % 900;
  const clockId = hash.readUInt16BE(2) % 1024;
  return tidOf(BigInt(dueAtMs) * 1000n + BigInt(below + index), clockId);
}
