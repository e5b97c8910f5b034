import { createHash } from 'node:crypto';
import { InvalidRequestError } from '../../domain/errors.js';

/** DynamoDB refuses a sort key longer than this many bytes (UTF-8), in a key or a start key alike. */
const MAX_SORT_KEY_BYTES = 1024;

/** Half of a UTF-16 pair on its own: not text DynamoDB can store. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Where one key attribute of a position may lie: exactly what the query's key condition allows, so
 * DynamoDB never sees an ExclusiveStartKey outside the query's range (it would refuse it: a 500).
 * `from` and `to` are inclusive and compared as DynamoDB compares strings, by their UTF-8 bytes.
 */
export interface KeyBounds {
  prefix?: string;
  from?: string;
  to?: string;
}

/**
 * What a cursor belongs to:
 * - `query` names the list and every parameter that decides which items it returns (the partition,
 *   the filters, the range, the order), never the page size, which may change from page to page;
 * - `keys` names each sort-key attribute the position carries, and where it may lie.
 * Cursors carry only sort-key positions, never a partition key: the partition is rebuilt from the
 * caller's own tenant on every request, so a forged cursor cannot reach another tenant's items.
 */
export interface CursorScope {
  query: Readonly<Record<string, string | undefined>>;
  keys: Readonly<Record<string, KeyBounds>>;
}

/** A short digest of the query: a cursor handed to another query is refused, not misread. */
function fingerprint(query: CursorScope['query']): string {
  const entries = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 16);
}

export function encodeCursor(
  lastKey: Record<string, unknown> | undefined,
  scope: CursorScope,
): string | undefined {
  if (!lastKey) return undefined;
  const position = Object.fromEntries(Object.keys(scope.keys).map((name) => [name, lastKey[name]]));
  return Buffer.from(JSON.stringify({ q: fingerprint(scope.query), p: position }), 'utf8').toString(
    'base64url',
  );
}

/** 400 for a cursor that is not one of ours. Any PostStore answers a bad cursor with these two. */
export const notValid = () =>
  new InvalidRequestError('The cursor is not valid.', {
    cursor: ['Use the nextCursor of a previous page, unchanged.'],
  });

/** 400 for one of our cursors sent with another query than the one that returned it. */
export const otherQuery = () =>
  new InvalidRequestError('The cursor belongs to another query.', {
    cursor: [
      'Send a nextCursor only with the same filters, status and range as the request that returned it.',
    ],
  });

function withinBounds(value: string, bounds: KeyBounds): boolean {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length === 0 || bytes.length > MAX_SORT_KEY_BYTES) return false;
  if (bounds.prefix !== undefined && !value.startsWith(bounds.prefix)) return false;
  if (bounds.from !== undefined && Buffer.compare(bytes, Buffer.from(bounds.from, 'utf8')) < 0) return false;
  if (bounds.to !== undefined && Buffer.compare(bytes, Buffer.from(bounds.to, 'utf8')) > 0) return false;
  return true;
}

/**
 * The position a cursor carries, once it is known to belong to this query (else 400 naming
 * `cursor`) and to lie where the query's key condition allows (else 400 too).
 */
export function decodeCursor(cursor: string, scope: CursorScope): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw notValid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw notValid();
  const { q, p } = parsed as Record<string, unknown>;
  if (typeof q !== 'string' || typeof p !== 'object' || p === null) throw notValid();
  if (q !== fingerprint(scope.query)) throw otherQuery();
  const carried = p as Record<string, unknown>;
  const position: Record<string, string> = {};
  for (const [name, bounds] of Object.entries(scope.keys)) {
    const value = carried[name];
    if (typeof value !== 'string' || LONE_SURROGATE.test(value) || !withinBounds(value, bounds))
      throw notValid();
    position[name] = value;
  }
  return position;
}
