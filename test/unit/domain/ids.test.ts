import fc from 'fast-check';
import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { ID_PREFIXES, type IdKind, isIdOf, newId } from '../../../shared/domain/ids.js';

const KINDS = Object.keys(ID_PREFIXES) as IdKind[];

describe('newId', () => {
  it.each([
    ['tenant', 'ten_'],
    ['workspace', 'wks_'],
    ['account', 'acc_'],
    ['post', 'pst_'],
    ['media', 'med_'],
    ['agent', 'agt_'],
    ['apiKey', 'key_'],
    ['webhook', 'whk_'],
    ['webhookDelivery', 'whd_'],
    ['event', 'evt_'],
    ['user', 'usr_'],
    ['request', 'req_'],
  ] as const)('starts a %s id with %s followed by a 26-character ULID', (kind, prefix) => {
    // Act
    const id = newId(kind);

    // Assess
    expect(id.startsWith(prefix)).toBe(true);
    expect(id.slice(prefix.length)).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('embeds the given time in the ULID part', () => {
    // Prepare
    const now = Date.UTC(2025, 5, 1, 12, 0, 0, 123);

    // Act
    const id = newId('post', now);

    // Assess
    expect(decodeTime(id.slice('pst_'.length))).toBe(now);
  });

  it('embeds the epoch itself when given the time 0 (e.g. from fixedClock(0))', () => {
    // Act
    const id = newId('post', 0);

    // Assess
    expect(decodeTime(id.slice('pst_'.length))).toBe(0);
    expect(id < newId('post', 1)).toBe(true);
  });

  it('sorts ids of one kind by creation time, as strings', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 47 }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        (earlier, gap) => {
          // Act
          const first = newId('post', earlier);
          const second = newId('post', earlier + gap);

          // Assess
          expect(first < second).toBe(true);
        },
      ),
    );
  });

  it('issues a different id on every call within the same millisecond', () => {
    // Prepare
    const now = Date.UTC(2025, 0, 1);

    // Act
    const ids = new Set(Array.from({ length: 200 }, () => newId('media', now)));

    // Assess
    expect(ids.size).toBe(200);
  });

  it('draws a fresh random part for ids of the same millisecond, every character of it from the whole alphabet', () => {
    // Act
    const randomParts = Array.from({ length: 2000 }, () => newId('post', 0).slice('pst_'.length + 10));

    // Assess: distinct, and at each of the 16 positions all 32 Crockford characters turn up
    expect(new Set(randomParts).size).toBe(randomParts.length);
    for (let position = 0; position < 16; position++) {
      expect(new Set(randomParts.map((part) => part[position])).size).toBe(32);
    }
  });
});

describe('isIdOf', () => {
  it('accepts every id that newId issues for the same kind', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.integer({ min: 0, max: 2 ** 47 }), (kind, now) => {
        expect(isIdOf(kind, newId(kind, now))).toBe(true);
      }),
    );
  });

  it('rejects an id of another kind', () => {
    // Prepare
    const workspaceId = newId('workspace');

    // Act
    const accepted = isIdOf('account', workspaceId);

    // Assess
    expect(accepted).toBe(false);
  });

  it.each([
    ['a lowercase ULID', `wks_${'01jd5xz9k8m7n6p5q4r3s2t1v0'}`],
    ['a ULID one character short', 'wks_01JD5XZ9K8M7N6P5Q4R3S2T1V'],
    ['a ULID one character long', 'wks_01JD5XZ9K8M7N6P5Q4R3S2T1V00'],
    ['the letter I, which Crockford base32 excludes', 'wks_01JD5XZ9K8M7N6P5Q4R3S2T1VI'],
    ['no underscore', 'wks01JD5XZ9K8M7N6P5Q4R3S2T1V0'],
    ['leading text', 'x_wks_01JD5XZ9K8M7N6P5Q4R3S2T1V0'],
    ['a trailing newline', 'wks_01JD5XZ9K8M7N6P5Q4R3S2T1V0\n'],
    ['an empty string', ''],
  ])('rejects a workspace id with %s', (_label, value) => {
    expect(isIdOf('workspace', value)).toBe(false);
  });

  it('accepts a well-formed workspace id written by hand', () => {
    expect(isIdOf('workspace', 'wks_01JD5XZ9K8M7N6P5Q4R3S2T1V0')).toBe(true);
  });
});
