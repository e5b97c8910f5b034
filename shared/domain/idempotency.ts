import { createHash } from 'node:crypto';

/** 1–255 visible ASCII characters (docs/api-decisions.md#idempotency). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/** How long a key's first response is replayed (docs/api-decisions.md#idempotency: 24 hours). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** JSON with object keys sorted at every level, so equal bodies hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What makes two requests "the same request" for one key: where they go and what they say. */
export function requestFingerprint(scope: string, body: unknown): string {
  return createHash('sha256')
    .update(`${scope}\n${canonicalJson(body)}`)
    .digest('hex');
}

/** The record kept per tenant and key: the first response, replayed while it lives. */
export interface IdempotencyRecord {
  tenantId: string;
  key: string;
  fingerprint: string;
  status: number;
  body: unknown;
  createdAt: string;
  /** Epoch seconds; a record past it is treated as absent even before TTL deletes it. */
  expiresAt: number;
}
