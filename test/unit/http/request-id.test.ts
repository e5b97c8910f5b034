import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIdOf } from '../../../shared/domain/ids.js';
import { requestIdFrom } from '../../../shared/http/request-id.js';

const SANE = /^[A-Za-z0-9._:-]{8,128}$/;

describe('requestIdFrom', () => {
  it.each([
    'abcdefgh',
    '0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b',
    'Root:1-67891233-abcdef012345678912345678',
    'trace.span:42-x',
    'a'.repeat(128),
  ])('keeps the sane incoming id %s', (incoming) => {
    expect(requestIdFrom(incoming)).toBe(incoming);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['seven characters long', 'abcdefg'],
    ['129 characters long', 'a'.repeat(129)],
    ['with a space', 'abc def ghi'],
    ['with a newline', 'abcdefgh\nX-Injected: 1'],
    ['ending in a newline', 'abcdefghij\n'],
    ['with a slash', 'abcd/efgh'],
    ['with an equals sign', 'Root=1-67891233-abcdef'],
    ['with non-ASCII letters', 'réquêtes-ids'],
  ])('makes a new req_ id when the incoming one is %s', (_label, incoming) => {
    // Act
    const id = requestIdFrom(incoming);

    // Assess
    expect(id).not.toBe(incoming);
    expect(isIdOf('request', id)).toBe(true);
  });

  it('makes a different id for each request without one', () => {
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });

  it('always answers a sane id, for any incoming string', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string({ unit: 'binary', maxLength: 200 }), { nil: undefined }),
        (incoming) => {
          expect(requestIdFrom(incoming)).toMatch(SANE);
        },
      ),
    );
  });

  it('keeps any incoming id that is already sane', () => {
    const saneChar = fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-'.split(''),
    );
    fc.assert(
      fc.property(
        fc.array(saneChar, { minLength: 8, maxLength: 128 }).map((chars) => chars.join('')),
        (incoming) => {
          expect(requestIdFrom(incoming)).toBe(incoming);
        },
      ),
    );
  });
});
