import { createHash, randomFillSync } from 'node:crypto';
import { encodeTime, TIME_LEN } from 'ulid';

/** Type prefixes of every identifier the service issues (docs/api-decisions.md#identifiers). */
export const ID_PREFIXES = {
  tenant: 'ten',
  workspace: 'wks',
  account: 'acc',
  post: 'pst',
  media: 'med',
  agent: 'agt',
  apiKey: 'key',
  webhook: 'whk',
  webhookDelivery: 'whd',
  event: 'evt',
  user: 'usr',
  request: 'req',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A ULID's random part: 16 characters of 5 bits, 80 bits. */
const RANDOM_LEN = 26 - TIME_LEN;

/**
 * A ULID's random part from one draw of the system's CSPRNG. (The ulid package draws once per
 * character: 16 calls into crypto per id, a measurable share of a create's CPU.) 5 bits of each
 * byte: 256 is a multiple of 32, so every character is equally likely.
 */
function randomPart(): string {
  const bytes = randomFillSync(new Uint8Array(RANDOM_LEN));
  let part = '';
  for (const byte of bytes) part += CROCKFORD[byte & 31];
  return part;
}

/** A new opaque id: type prefix + ULID, so ids sort by creation time. */
export function newId(kind: IdKind, now: number = Date.now()): string {
  // The time part is encoded here, never by ulid(): ulid(0) would silently use the wall clock.
  return `${ID_PREFIXES[kind]}_${encodeTime(now, TIME_LEN)}${randomPart()}`;
}

/**
 * An id derived from what it names rather than drawn at random: the same `identity` always gives
 * the same id, so a repeated write (a redelivered message) lands on the first one's record. The
 * time part is `timePart` (the first 10 characters of a ULID, e.g. those of the event it is about),
 * so derived ids still sort by time.
 */
export function derivedId(kind: IdKind, timePart: string, ...identity: string[]): string {
  if (timePart.length !== TIME_LEN) throw new RangeError(`A ULID time part has ${TIME_LEN} characters.`);
  const digest = createHash('sha256').update(identity.join('\n')).digest();
  let random = '';
  for (let i = 0; i < 26 - TIME_LEN; i++) random += CROCKFORD[(digest[i] ?? 0) % 32];
  return `${ID_PREFIXES[kind]}_${timePart}${random}`;
}

const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';

/** True when `value` has the shape of an id of this kind; says nothing of whether it exists. */
export function isIdOf(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_${ULID_PATTERN}$`).test(value);
}
