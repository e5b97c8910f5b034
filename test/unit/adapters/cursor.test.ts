import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CursorScope, decodeCursor, encodeCursor } from '../../../shared/adapters/dynamodb/cursor.js';
import { InvalidRequestError, toEnvelope } from '../../../shared/domain/errors.js';
import { thrownBy } from '../support/thrown.js';

const scope: CursorScope = {
  query: { list: 'posts', partition: 'TENANT#ten_1#WS#wks_1', status: 'scheduled', scheduledTo: undefined },
  keys: { sk: { prefix: 'POST#' }, gsi1sk: { from: '2026-01-01', to: '2026-12-31~' } },
};
const inside = { sk: 'POST#pst_01JD5XZ9K8', gsi1sk: '2026-06-01T00:00:00.000Z#pst_01JD5XZ9K8' };
const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
/** A cursor this scope would issue for `position`, built by hand so that any position can be tried. */
const issued = (position: unknown) => {
  const cursor = encodeCursor(inside, scope) as string;
  const { q } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { q: string };
  return encode({ q, p: position });
};

function expectRefused(act: () => unknown) {
  const thrown = thrownBy(act);
  expect(thrown).toBeInstanceOf(InvalidRequestError);
  expect(toEnvelope(thrown as InvalidRequestError)).toMatchObject({
    error: 'INVALID_REQUEST',
    details: { cursor: [expect.any(String)] },
  });
}

describe('encodeCursor / decodeCursor', () => {
  it('round-trips the sort-key position', () => {
    // Act
    const cursor = encodeCursor(inside, scope);

    // Assess
    expect(cursor).toEqual(expect.any(String));
    expect(decodeCursor(cursor as string, scope)).toEqual(inside);
  });

  it('round-trips any position inside the bounds', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), (a, b) => {
        const lastKey = { sk: `POST#${a}`, gsi1sk: `2026-03-${b}` };
        fc.pre(!/\p{Cs}/u.test(a + b) && Buffer.byteLength(lastKey.sk) <= 1024);
        expect(decodeCursor(encodeCursor(lastKey, scope) as string, scope)).toEqual(lastKey);
      }),
    );
  });

  it('is opaque URL-safe text', () => {
    expect(encodeCursor({ sk: 'POST#??>>//++', gsi1sk: '2026-02-01ü' }, scope)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('encodes no cursor on the last page', () => {
    expect(encodeCursor(undefined, scope)).toBeUndefined();
  });

  it('drops every attribute the scope does not name, such as the partition key', () => {
    // Prepare
    const lastKey = { ...inside, pk: 'TENANT#ten_victim', gsi1pk: 'TENANT#ten_victim#STATUS#scheduled' };

    // Act
    const cursor = encodeCursor(lastKey, scope) as string;

    // Assess
    const carried = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    expect(Object.keys(carried.p).sort()).toEqual(['gsi1sk', 'sk']);
    expect(JSON.stringify(carried)).not.toContain('victim');
  });

  it('decodes only the scope keys even when the cursor was forged with more', () => {
    expect(decodeCursor(issued({ ...inside, pk: 'TENANT#other' }), scope)).toEqual(inside);
  });

  it('ignores absent query parameters and their order', () => {
    // Prepare
    const cursor = encodeCursor(inside, scope) as string;
    const same: CursorScope = {
      ...scope,
      query: { status: 'scheduled', partition: 'TENANT#ten_1#WS#wks_1', list: 'posts' },
    };

    // Act / Assess
    expect(decodeCursor(cursor, same)).toEqual(inside);
  });
});

describe('decodeCursor binds a cursor to its query', () => {
  it.each([
    ['another status', { status: 'draft' }],
    ['another partition', { partition: 'TENANT#ten_1#WS#wks_2' }],
    ['a range added', { scheduledFrom: '2026-01-01T00:00:00.000Z' }],
    ['a filter removed', { status: undefined }],
  ])('refuses a cursor sent with %s, naming cursor', (_label, change) => {
    // Prepare
    const cursor = encodeCursor(inside, scope) as string;
    const other: CursorScope = { ...scope, query: { ...scope.query, ...change } };

    // Act
    const thrown = thrownBy(() => decodeCursor(cursor, other));

    // Assess
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect((thrown as InvalidRequestError).message).toMatch(/another query/);
    expect((thrown as InvalidRequestError).details).toEqual({ cursor: [expect.any(String)] });
  });
});

describe('decodeCursor refuses a position DynamoDB would not take', () => {
  it.each([
    ['below the range', { sk: 'POST#1', gsi1sk: '2025-12-31T23:59:59.999Z#pst_1' }],
    ['above the range', { sk: 'POST#1', gsi1sk: '2027-01-01T00:00:00.000Z#pst_1' }],
    ['with the wrong prefix', { sk: 'ACCOUNT#1', gsi1sk: inside.gsi1sk }],
    ['empty', { sk: 'POST#1', gsi1sk: '' }],
    ['over 1,024 bytes of UTF-8', { sk: `POST#${'€'.repeat(340)}`, gsi1sk: inside.gsi1sk }],
    ['with a lone surrogate', { sk: 'POST#\ud800', gsi1sk: inside.gsi1sk }],
    ['a number where a string belongs', { sk: 5, gsi1sk: inside.gsi1sk }],
    ['an object where a string belongs', { sk: { S: 'POST#1' }, gsi1sk: inside.gsi1sk }],
    ['a missing key', { sk: 'POST#1' }],
  ])('a position %s', (_label, position) => {
    expectRefused(() => decodeCursor(issued(position), scope));
  });

  it('compares bounds by UTF-8 bytes, as DynamoDB does', () => {
    // Prepare: U+1F600 lies between U+0100 and U+FFFF in UTF-16 code units, above both in UTF-8.
    const bounded: CursorScope = { query: {}, keys: { sk: { from: 'A\u0100', to: 'A\uffff' } } };
    const { q } = JSON.parse(
      Buffer.from(encodeCursor({ sk: 'A' }, bounded) as string, 'base64url').toString(),
    );
    const build = (sk: string) => encode({ q, p: { sk } });

    // Act / Assess
    expect(decodeCursor(build('A\ue000'), bounded)).toEqual({ sk: 'A\ue000' });
    expectRefused(() => decodeCursor(build('A😀'), bounded));
  });
});

describe('decodeCursor rejects a tampered cursor with 400 INVALID_REQUEST', () => {
  it.each([
    ['text that is not base64url JSON', '!!!not-a-cursor!!!'],
    ['base64url of something that is not JSON', Buffer.from('{sk:', 'utf8').toString('base64url')],
    ['JSON null', encode(null)],
    ['a JSON string', encode('POST#1')],
    ['a JSON number', encode(42)],
    ['a JSON array', encode(['POST#1', 'SCHED#2'])],
    ['the position without its query', encode(inside)],
    ['a position that is not an object', encode({ q: 'abc', p: 'POST#1' })],
    ['an empty cursor', ''],
  ])('%s', (_label, cursor) => {
    expectRefused(() => decodeCursor(cursor, scope));
  });

  it('for a cursor whose base64 was altered by one character', () => {
    // Prepare
    const cursor = encodeCursor(inside, scope) as string;
    const tampered = `${cursor.slice(0, 2)}${cursor[2] === 'A' ? 'B' : 'A'}${cursor.slice(3)}`;

    // Act / Assess
    expectRefused(() => decodeCursor(tampered, scope));
  });

  it('for any string, either a position inside the bounds or InvalidRequestError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (cursor) => {
        let position: Record<string, string> | undefined;
        let thrown: unknown;
        try {
          position = decodeCursor(cursor, scope);
        } catch (error) {
          thrown = error;
        }
        if (position) {
          expect(position.sk?.startsWith('POST#')).toBe(true);
          expect(position.gsi1sk?.startsWith('2026')).toBe(true);
        } else {
          expect(thrown).toBeInstanceOf(InvalidRequestError);
        }
      }),
    );
  });
});
