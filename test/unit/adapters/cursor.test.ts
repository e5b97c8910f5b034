import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../shared/adapters/dynamodb/cursor.js';
import { InvalidRequestError, toEnvelope } from '../../../shared/domain/errors.js';
import { thrownBy } from '../support/thrown.js';

const shape = { sk: 'POST#', gsi1sk: 'SCHED#' };
const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

describe('encodeCursor / decodeCursor', () => {
  it('round-trips the sort-key position', () => {
    // Prepare
    const lastKey = { sk: 'POST#01JD5XZ9K8', gsi1sk: 'SCHED#2025-01-01T00:00:00Z#pst_1' };

    // Act
    const cursor = encodeCursor(lastKey, shape);

    // Assess
    expect(cursor).toEqual(expect.any(String));
    expect(decodeCursor(cursor as string, shape)).toEqual(lastKey);
  });

  it('round-trips any position whose values carry the right prefixes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), (a, b) => {
        const lastKey = { sk: `POST#${a}`, gsi1sk: `SCHED#${b}` };
        expect(decodeCursor(encodeCursor(lastKey, shape) as string, shape)).toEqual(lastKey);
      }),
    );
  });

  it('is opaque URL-safe text', () => {
    // Act
    const cursor = encodeCursor({ sk: 'POST#??>>//++', gsi1sk: 'SCHED#ü' }, shape);

    // Assess
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('encodes no cursor on the last page', () => {
    expect(encodeCursor(undefined, shape)).toBeUndefined();
  });

  it('drops every attribute the shape does not name, such as the partition key', () => {
    // Prepare
    const lastKey = { pk: 'TENANT#ten_victim', sk: 'POST#1', gsi1sk: 'SCHED#2', gsi1pk: 'TENANT#ten_victim' };

    // Act
    const cursor = encodeCursor(lastKey, shape) as string;

    // Assess
    const carried = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    expect(Object.keys(carried).sort()).toEqual(['gsi1sk', 'sk']);
    expect(JSON.stringify(carried)).not.toContain('victim');
  });

  it('decodes only the shape keys even when the cursor was forged with more', () => {
    // Prepare
    const forged = encode({ pk: 'TENANT#other', sk: 'POST#1', gsi1sk: 'SCHED#2' });

    // Act
    const position = decodeCursor(forged, shape);

    // Assess
    expect(position).toEqual({ sk: 'POST#1', gsi1sk: 'SCHED#2' });
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
    ['a missing key', encode({ sk: 'POST#1' })],
    ['a value with the wrong prefix', encode({ sk: 'TENANT#1', gsi1sk: 'SCHED#2' })],
    ['a number where a string belongs', encode({ sk: 5, gsi1sk: 'SCHED#2' })],
    ['an object where a string belongs', encode({ sk: { S: 'POST#1' }, gsi1sk: 'SCHED#2' })],
    ['a value over 512 characters', encode({ sk: `POST#${'x'.repeat(600)}`, gsi1sk: 'SCHED#2' })],
    ['an empty cursor', ''],
  ])('%s', (_label, cursor) => {
    // Act
    const thrown = thrownBy(() => decodeCursor(cursor, shape));

    // Assess
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect(toEnvelope(thrown as InvalidRequestError)).toMatchObject({
      error: 'INVALID_REQUEST',
      details: { cursor: [expect.any(String)] },
    });
  });

  it('for a cursor whose base64 was altered by one character', () => {
    // Prepare
    const cursor = encodeCursor({ sk: 'POST#1', gsi1sk: 'SCHED#2' }, shape) as string;
    const tampered = `${cursor.slice(0, 2)}${cursor[2] === 'A' ? 'B' : 'A'}${cursor.slice(3)}`;

    // Act
    const thrown = thrownBy(() => decodeCursor(tampered, shape));

    // Assess
    expect(thrown).toBeInstanceOf(InvalidRequestError);
  });

  it('for any string, either a position with the right prefixes or InvalidRequestError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (cursor) => {
        let position: Record<string, string> | undefined;
        let thrown: unknown;
        try {
          position = decodeCursor(cursor, shape);
        } catch (error) {
          thrown = error;
        }
        if (position) {
          expect(position.sk?.startsWith('POST#')).toBe(true);
          expect(position.gsi1sk?.startsWith('SCHED#')).toBe(true);
        } else {
          expect(thrown).toBeInstanceOf(InvalidRequestError);
        }
      }),
    );
  });
});
