import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  API_KEY_PREFIX,
  apiKeyHint,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from '../../../shared/domain/api-keys.js';

const HEX = '0123456789abcdef'.split('');
const lowerHex = (length: number) =>
  fc.array(fc.constantFrom(...HEX), { minLength: length, maxLength: length }).map((chars) => chars.join(''));

describe('generateApiKey', () => {
  it('is smcp_ followed by 64 lowercase hexadecimal characters', () => {
    // Act
    const key = generateApiKey();

    // Assess
    expect(key).toMatch(/^smcp_[0-9a-f]{64}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('never repeats a key', () => {
    // Act
    const keys = new Set(Array.from({ length: 500 }, generateApiKey));

    // Assess
    expect(keys.size).toBe(500);
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 of the plaintext in lowercase hex (FIPS 180-2 test vector)', () => {
    // Act
    const hash = hashApiKey('abc');

    // Assess
    expect(hash).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('is 64 lowercase hex characters and differs from the plaintext for any key', () => {
    fc.assert(
      fc.property(lowerHex(64), (hex) => {
        // Prepare
        const key = `${API_KEY_PREFIX}${hex}`;

        // Act
        const hash = hashApiKey(key);

        // Assess
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        expect(hash).not.toContain(hex);
        expect(hashApiKey(key)).toBe(hash);
      }),
    );
  });

  it('gives two keys that differ in one character different hashes', () => {
    // Prepare
    const a = `smcp_${'0'.repeat(64)}`;
    const b = `smcp_${'0'.repeat(63)}1`;

    // Act / Assess
    expect(hashApiKey(a)).not.toBe(hashApiKey(b));
  });
});

describe('apiKeyHint', () => {
  it('is the last four characters of the plaintext', () => {
    expect(apiKeyHint(`smcp_${'a'.repeat(60)}1f2e`)).toBe('1f2e');
  });
});

describe('isWellFormedApiKey', () => {
  it('accepts smcp_ followed by any 64 lowercase hex characters', () => {
    fc.assert(fc.property(lowerHex(64), (hex) => isWellFormedApiKey(`smcp_${hex}`)));
  });

  it('rejects a key whose hex part has an uppercase letter', () => {
    fc.assert(
      fc.property(
        lowerHex(63),
        fc.constantFrom(...'ABCDEF'.split('')),
        fc.nat({ max: 63 }),
        (hex, upper, at) => {
          const key = `smcp_${hex.slice(0, at)}${upper}${hex.slice(at)}`;
          expect(key).toHaveLength(69);
          expect(isWellFormedApiKey(key)).toBe(false);
        },
      ),
    );
  });

  it('rejects a hex part shorter than 64 characters', () => {
    fc.assert(
      fc.property(fc.nat({ max: 63 }).chain(lowerHex), (hex) => {
        expect(isWellFormedApiKey(`smcp_${hex}`)).toBe(false);
      }),
    );
  });

  it('rejects a hex part longer than 64 characters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 65, max: 200 }).chain(lowerHex), (hex) => {
        expect(isWellFormedApiKey(`smcp_${hex}`)).toBe(false);
      }),
    );
  });

  it('rejects any prefix other than smcp_', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 10 }).filter((prefix) => prefix !== 'smcp_'),
        lowerHex(64),
        (prefix, hex) => {
          expect(isWellFormedApiKey(`${prefix}${hex}`)).toBe(false);
        },
      ),
    );
  });

  it('rejects non-hex characters, surrounding whitespace and a trailing newline', () => {
    // Prepare
    const hex = 'a'.repeat(64);
    const candidates = [
      `smcp_${'g'.repeat(64)}`,
      `SMCP_${hex}`,
      ` smcp_${hex}`,
      `smcp_${hex} `,
      `smcp_${hex}\n`,
      `smcp-${hex}`,
      '',
    ];

    // Act
    const accepted = candidates.filter(isWellFormedApiKey);

    // Assess
    expect(accepted).toEqual([]);
  });
});
