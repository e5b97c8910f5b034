import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePlatform, PLATFORMS } from '../../../shared/domain/platforms.js';

describe('normalizePlatform', () => {
  it.each(PLATFORMS)('keeps %s', (platform) => {
    expect(normalizePlatform(platform)).toBe(platform);
  });

  it.each(['x', 'X'])('stores %s as twitter', (alias) => {
    expect(normalizePlatform(alias)).toBe('twitter');
  });

  it.each([
    ['LinkedIn', 'linkedin'],
    ['TWITTER', 'twitter'],
    ['YouTube', 'youtube'],
    ['TikTok', 'tiktok'],
    ['Instagram', 'instagram'],
  ])('is case-insensitive: %s is %s', (input, expected) => {
    expect(normalizePlatform(input)).toBe(expected);
  });

  it.each(['myspace', 'mastodon', '', ' twitter', 'twitter ', 'x.com', 'linked-in'])(
    'answers undefined for the unknown platform "%s"',
    (value) => {
      expect(normalizePlatform(value)).toBeUndefined();
    },
  );

  it.each(['constructor', '__proto__', 'Constructor', 'hasOwnProperty', 'toString'])(
    'answers undefined for "%s", a name that Object.prototype carries',
    (value) => {
      expect(normalizePlatform(value)).toBeUndefined();
    },
  );

  it('answers a known platform or undefined for any string, including property names of plain objects', () => {
    const objectPropertyNames = Object.getOwnPropertyNames(Object.prototype);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom(...objectPropertyNames)), (value) => {
        // Act
        const platform = normalizePlatform(value);

        // Assess
        const known = [...PLATFORMS, 'x'].includes(value.toLowerCase());
        expect(platform === undefined ? !known : (PLATFORMS as readonly unknown[]).includes(platform)).toBe(
          true,
        );
      }),
    );
  });
});
