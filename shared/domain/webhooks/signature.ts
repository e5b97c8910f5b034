import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (the service interface's section 6, docs/api-decisions.md#webhooks): the
 * scheme is Stripe's, byte for byte, so any receiver library written for it works with ours:
 *
 *   X-Webhook-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * The key is the whole secret text, `whsec_` prefix included, as its UTF-8 bytes.
 */

/** The header that carries the signature. */
export const SIGNATURE_HEADER = 'X-Webhook-Signature';

/** A receiver refuses a timestamp further than this from its own clock (replay protection). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** `whsec_` + 32 random bytes in base64url (43 characters, no padding). */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

const SIGNATURE_BYTES = 32;
const V1_PATTERN = /^[0-9a-f]{64}$/;
const TIMESTAMP_PATTERN = /^\d{1,15}$/;

/** A new webhook secret. `random` is a seam for tests; the system's CSPRNG otherwise. */
export function newWebhookSecret(random: (size: number) => Buffer = randomBytes): string {
  return `whsec_${random(32).toString('base64url')}`;
}

function hmac(secret: string, timestampSeconds: number, rawBody: string | Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${timestampSeconds}.`).update(rawBody).digest();
}

/**
 * The header value for one delivery. `rawBody` must be exactly the bytes sent (a string is signed
 * as its UTF-8 bytes, as it is sent).
 */
export function signWebhook(secret: string, timestampSeconds: number, rawBody: string | Uint8Array): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('The signature timestamp must be a whole number of seconds since the epoch.');
  }
  return `t=${timestampSeconds},v1=${hmac(secret, timestampSeconds, rawBody).toString('hex')}`;
}

export type WebhookVerification =
  | { valid: true; timestamp: number }
  | {
      valid: false;
      /**
       * `malformed_header`: no single `t=` of digits, or no `v1=` entry;
       * `no_matching_signature`: no `v1=` is the HMAC of this body under this secret at this `t`;
       * `timestamp_outside_tolerance`: authentic, but signed too long before (or after) now: a replay.
       */
      reason: 'malformed_header' | 'no_matching_signature' | 'timestamp_outside_tolerance';
    };

interface ParsedHeader {
  timestamp: number;
  /** Every `v1=` value, well formed or not (a malformed one simply never matches). */
  signatures: string[];
}

/**
 * Reads `t=…,v1=…[,v1=…]` leniently as Stripe does: spaces around entries are ignored, so are
 * entries of other schemes (`v0=`), and several `v1=` entries are allowed (a sender may sign with
 * more than one secret while rotating).
 */
function parseHeader(header: string): ParsedHeader | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const entry of header.split(',')) {
    const separator = entry.indexOf('=');
    if (separator < 0) continue;
    const key = entry.slice(0, separator).trim();
    const value = entry.slice(separator + 1).trim();
    if (key === 't') {
      // Two timestamps make the signed text ambiguous: refuse rather than guess.
      if (timestamp !== undefined || !TIMESTAMP_PATTERN.test(value)) return undefined;
      timestamp = Number(value);
    } else if (key === 'v1') {
      signatures.push(value);
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/**
 * Checks a received signature header against the raw body, in constant time for each candidate
 * (equal-length buffers through `timingSafeEqual`; a candidate of the wrong shape is skipped
 * without comparing). The signature is checked before the timestamp, so "outside tolerance" is
 * only ever said of a genuine, but stale or early, delivery. The window applies both ways.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  rawBody: string | Uint8Array,
  nowSeconds: number,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
): WebhookVerification {
  const parsed = header === undefined ? undefined : parseHeader(header);
  if (!parsed) return { valid: false, reason: 'malformed_header' };
  const expected = hmac(secret, parsed.timestamp, rawBody);
  let matched = false;
  for (const candidate of parsed.signatures) {
    if (!V1_PATTERN.test(candidate)) continue;
    const received = Buffer.from(candidate, 'hex');
    // Every well-formed candidate is compared (no early exit), so timing says nothing of which matched.
    if (received.length === SIGNATURE_BYTES && timingSafeEqual(received, expected)) matched = true;
  }
  if (!matched) return { valid: false, reason: 'no_matching_signature' };
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) {
    return { valid: false, reason: 'timestamp_outside_tolerance' };
  }
  return { valid: true, timestamp: parsed.timestamp };
}
