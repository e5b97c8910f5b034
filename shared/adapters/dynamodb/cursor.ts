import { InvalidRequestError } from '../../domain/errors.js';

/**
 * Cursors carry only sort-key positions, never a partition key: the partition is rebuilt from the
 * caller's own tenant on every request, so a forged cursor cannot reach another tenant's items.
 * `shape` maps each carried attribute to the prefix its value must start with.
 */
export type CursorShape = Record<string, string>;

export function encodeCursor(
  lastKey: Record<string, unknown> | undefined,
  shape: CursorShape,
): string | undefined {
  if (!lastKey) return undefined;
  const kept = Object.fromEntries(Object.keys(shape).map((name) => [name, lastKey[name]]));
  return Buffer.from(JSON.stringify(kept), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, shape: CursorShape): Record<string, string> {
  const invalid = () =>
    new InvalidRequestError('The cursor is not valid.', {
      cursor: ['Use the nextCursor of a previous page.'],
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const record = parsed as Record<string, unknown>;
  const position: Record<string, string> = {};
  for (const [name, prefix] of Object.entries(shape)) {
    const value = record[name];
    if (typeof value !== 'string' || !value.startsWith(prefix) || value.length > 512) throw invalid();
    position[name] = value;
  }
  return position;
}
