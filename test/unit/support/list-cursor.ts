import { notValid, otherQuery } from '../../../shared/adapters/dynamodb/cursor.js';

/**
 * The in-memory stores' cursor: the listing it came from (`scope`: every filter, never the page
 * size) and the position after which the next page starts. Refused as the DynamoDB adapters refuse
 * theirs: not one of ours → notValid; from another query → otherQuery.
 */
interface ListCursor {
  scope: string;
  after: string;
}

export function encodeListCursor(scope: string, after: string): string {
  return Buffer.from(JSON.stringify({ scope, after } satisfies ListCursor), 'utf8').toString('base64url');
}

export function decodeListCursor(cursor: string, scope: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw notValid();
  }
  const candidate = parsed as Partial<ListCursor> | null;
  if (typeof candidate?.scope !== 'string' || typeof candidate.after !== 'string') throw notValid();
  if (candidate.scope !== scope) throw otherQuery();
  return candidate.after;
}
