import { createHash } from 'node:crypto';
import { ID_PREFIXES } from '../../shared/domain/ids.js';

/**
 * What a recording holds that would differ on every run, or that must never be published, made
 * stable and fake while keeping its exact shape:
 * - ids: the ULID's random part is drawn at random; it is replaced by one derived from the id's
 *   kind, its time part (from the scenario's clock, kept) and its rank among the ids of that kind
 *   and millisecond. The same id
 *   stays the same id everywhere in the recording, so the examples still refer to each other.
 * - webhook secrets (whsec_…): FAKE_WEBHOOK_SECRET, well-formed (WEBHOOK_SECRET_PATTERN); the real one is never
 *   written anywhere. API keys never appear in a response of the registry.
 * - list cursors: base64url JSON carrying ids and a digest of the query; the ids inside are mapped
 *   like any other, the digest becomes a stable fake of the same length.
 * - the OAuth authorize URL's `state` and PKCE `code_challenge`: random per connect; stable fakes
 *   of the same alphabet and length.
 * - the presigned upload URL: the loopback storage's address (a new port per run) becomes the S3
 *   address a deployment answers, the signature, date and access key become AWS's documented
 *   example values.
 */
export function makeNormalizer(options: { storageEndpoint: string; bucket: string; region: string }) {
  const ids = new Map<string, string>();
  const tokens = new Map<string, string>();
  const idPattern = new RegExp(
    `\\b(${Object.values(ID_PREFIXES).join('|')})_([0-9A-HJKMNP-TV-Z]{10})([0-9A-HJKMNP-TV-Z]{16})\\b`,
    'g',
  );

  const stableId = (whole: string, prefix: string, time: string) => {
    let mapped = ids.get(whole);
    if (!mapped) {
      // Numbered among the ids of the same kind and millisecond: the scenario's clock gives most
      // ids a millisecond of their own, so a mapping rarely depends on the order ids are met in.
      const sameInstant = `${prefix}_${time}`;
      const rank = [...ids.values()].filter((id) => id.startsWith(sameInstant)).length;
      mapped = `${sameInstant}${crockford(`${sameInstant} ${rank}`, 16)}`;
      ids.set(whole, mapped);
    }
    return mapped;
  };
  const stableToken = (kind: string, value: string, make: (seed: string) => string) => {
    const key = `${kind}\n${value}`;
    let mapped = tokens.get(key);
    if (!mapped) {
      mapped = make(`${kind} ${tokens.size}`);
      tokens.set(key, mapped);
    }
    return mapped;
  };

  const text = (value: string): string => {
    let out = value.startsWith(options.storageEndpoint) ? presignedUrl(value) : value;
    out = out.replace(idPattern, (whole, prefix: string, time: string) => stableId(whole, prefix, time));
    if (/^whsec_[A-Za-z0-9_-]{43}$/.test(out)) out = FAKE_WEBHOOK_SECRET;
    out = out.replace(
      /([?&](?:state|code_challenge)=)([A-Za-z0-9_-]+)/g,
      (_, name: string, token: string) =>
        `${name}${stableToken(name, token, (seed) => base64url(seed, token.length))}`,
    );
    return out;
  };

  const cursor = (value: string): string => {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    } catch {
      return text(value);
    }
    if (typeof decoded !== 'object' || decoded === null || !('q' in decoded) || typeof decoded.q !== 'string')
      return text(value);
    const q = stableToken('cursor', decoded.q, (seed) => base64url(seed, 16));
    const position = walk('p' in decoded ? decoded.p : undefined);
    return Buffer.from(JSON.stringify({ q, p: position }), 'utf8').toString('base64url');
  };

  const presignedUrl = (value: string): string => {
    const url = new URL(value);
    const key = url.pathname.replace(`/${options.bucket}/`, '');
    const target = new URL(`https://${options.bucket}.s3.${options.region}.amazonaws.com/${key}`);
    for (const [name, param] of url.searchParams) {
      const fake: Record<string, string> = {
        'X-Amz-Credential': `AKIAIOSFODNN7EXAMPLE/20990101/${options.region}/s3/aws4_request`,
        'X-Amz-Date': '20990101T120000Z',
        'X-Amz-Signature': 'f'.repeat(64),
        'X-Amz-Security-Token': 'FAKE-SESSION-TOKEN',
      };
      target.searchParams.set(name, fake[name] ?? param);
    }
    return target.toString();
  };

  /** A presigned upload's expiresAt is its signing time plus X-Amz-Expires: kept so after the fake date. */
  const uploadExpiry = (uploadUrl: string): string | undefined => {
    const params = new URL(uploadUrl).searchParams;
    const date = params.get('X-Amz-Date')?.match(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/);
    const seconds = Number(params.get('X-Amz-Expires'));
    if (!date || !Number.isInteger(seconds)) return undefined;
    const [, year, month, day, hour, minute, second] = date.map(Number);
    const signedAt = Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second);
    return new Date(signedAt + seconds * 1000).toISOString();
  };

  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') return key === 'nextCursor' ? cursor(value) : text(value);
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, unknown> = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, walk(item, name)]),
      );
      const expiry = typeof out.uploadUrl === 'string' ? uploadExpiry(out.uploadUrl) : undefined;
      if (expiry && 'expiresAt' in out) out.expiresAt = expiry;
      return out;
    }
    return value;
  };

  return { normalize: (value: unknown) => walk(value) };
}

/** Well-formed (WEBHOOK_SECRET_PATTERN), and plainly not a secret anyone was given. */
export const FAKE_WEBHOOK_SECRET = `whsec_${'FAKE-example-secret-not-a-real-one-'.padEnd(43, '0')}`;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function digestChars(seed: string, length: number, alphabet: string): string {
  let out = '';
  for (let round = 0; out.length < length; round++) {
    for (const byte of createHash('sha256').update(`${seed}#${round}`).digest()) {
      if (out.length === length) break;
      out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

const crockford = (seed: string, length: number) => digestChars(seed, length, CROCKFORD);
const base64url = (seed: string, length: number) => digestChars(seed, length, BASE64URL);
