import fc from 'fast-check';
import twitter from 'twitter-text';
import { describe, expect, it } from 'vitest';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import { PLATFORMS } from '../../../shared/domain/platforms.js';
import {
  type ContentItem,
  MEDIA_KINDS,
  type MediaKindLookup,
  type MediaRef,
  POST_TYPES,
  type PostDraft,
} from '../../../shared/domain/posts.js';
import { images, kindFromType } from './drafts.js';

/** A string of exactly n units, n drawn from [min, max]: fast-check's default sizes stay far below 280. */
const stringOfLength = (unit: 'binary' | 'grapheme' | fc.Arbitrary<string>, min: number, max: number) =>
  fc.integer({ min, max }).chain((n) => fc.string({ unit, minLength: n, maxLength: n }));

/** Text on both sides of 280: any code points, whole graphemes, CJK/emoji with a URL, and ASCII at the edge. */
const tweetText = fc.oneof(
  stringOfLength('binary', 0, 320),
  stringOfLength('grapheme', 0, 320),
  fc
    .tuple(stringOfLength(fc.constantFrom('漢', 'a', '🙂', ' ', 'é'), 0, 300), fc.webUrl({ size: 'large' }))
    .map(([words, url]) => `${words} ${url}`),
  stringOfLength(fc.constantFrom('a', 'b', '.'), 275, 285),
);

const mediaRef: fc.Arbitrary<MediaRef> = fc.oneof(
  fc.record({ url: fc.webUrl(), type: fc.constantFrom(...MEDIA_KINDS) }),
  fc.record({ id: fc.string({ maxLength: 10 }) }, { requiredKeys: [] }),
);

const contentItem: fc.Arbitrary<ContentItem> = fc.record(
  { text: fc.string({ unit: 'grapheme', maxLength: 400 }), media: fc.array(mediaRef, { maxLength: 40 }) },
  { requiredKeys: [] },
);

const draft: fc.Arbitrary<PostDraft> = fc.record({
  platform: fc.constantFrom(...PLATFORMS),
  postType: fc.constantFrom(...POST_TYPES),
  content: fc.oneof(fc.string({ unit: 'binary', maxLength: 6000 }), fc.array(contentItem, { maxLength: 40 })),
  media: fc.array(mediaRef, { maxLength: 40 }),
});

/** A lookup that knows some references and not others, deterministically per reference. */
const lookup: fc.Arbitrary<MediaKindLookup> = fc
  .func(fc.option(fc.constantFrom(...MEDIA_KINDS), { nil: undefined }))
  .map((pick) => (ref: MediaRef) => pick(ref.url ?? ref.id));

describe('platform rules, for any input', () => {
  it('X text: TEXT_TOO_LONG exactly once at content iff the weighted length is over 280', () => {
    fc.assert(
      fc.property(tweetText, (text) => {
        // Act
        const violations = checkPlatformRules(
          { platform: 'twitter', postType: 'text', content: text, media: [] },
          kindFromType,
        );

        // Assess
        const tooLong = violations.filter((v) => v.code === 'TEXT_TOO_LONG');
        if (twitter.parseTweet(text).weightedLength <= 280) {
          expect(tooLong).toEqual([]);
        } else {
          expect(tooLong).toEqual([expect.objectContaining({ field: 'content', limit: 280 })]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('X thread items: each over-long item is reported once at its own path', () => {
    fc.assert(
      fc.property(fc.array(tweetText, { minLength: 2, maxLength: 6 }), (texts) => {
        // Act
        const violations = checkPlatformRules(
          { platform: 'twitter', postType: 'thread', content: texts.map((text) => ({ text })), media: [] },
          kindFromType,
        );

        // Assess
        const expected = texts.flatMap((text, i) =>
          twitter.parseTweet(text).weightedLength > 280 ? [`content[${i}].text`] : [],
        );
        expect(violations.filter((v) => v.code === 'TEXT_TOO_LONG').map((v) => v.field)).toEqual(expected);
      }),
    );
  });

  it('LinkedIn carousel: n images are valid iff 2 ≤ n ≤ 20, in either content shape', () => {
    fc.assert(
      fc.property(fc.nat({ max: 40 }), fc.boolean(), (n, asItems) => {
        // Prepare
        const refs = images(n);
        const post: PostDraft = asItems
          ? {
              platform: 'linkedin',
              postType: 'carousel',
              content: refs.map((ref) => ({ media: [ref] })),
              media: [],
            }
          : { platform: 'linkedin', postType: 'carousel', content: 'Our year', media: refs };

        // Act
        const violations = checkPlatformRules(post, kindFromType);

        // Assess
        expect(violations.length === 0).toBe(n >= 2 && n <= 20);
      }),
    );
  });

  it('never throws, and reports only well-formed violations, the same way twice', () => {
    fc.assert(
      fc.property(draft, lookup, (post, mediaKind) => {
        // Act
        const first = checkPlatformRules(post, mediaKind);
        const second = checkPlatformRules(post, mediaKind);

        // Assess
        expect(second).toEqual(first);
        for (const v of first) {
          expect(v.field).toMatch(/^(postType|content|media)(\[\d+\])?(\.(text|media)(\[\d+\])?)?$/);
          expect(v.code).toMatch(/^[A-Z_]+$/);
          expect(v.message.length).toBeGreaterThan(0);
          if ('limit' in v) expect(Number.isInteger(v.limit)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
