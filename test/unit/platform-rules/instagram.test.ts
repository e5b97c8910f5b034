import { describe, expect, it } from 'vitest';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { ContentItem, PostDraft } from '../../../shared/domain/posts.js';
import { countHashtags, countMentions } from '../../../shared/networks/instagram/rules.js';
import { aDraft, codes, images, kindFromType, videos } from './drafts.js';

const instagram = (overrides: Partial<PostDraft>) =>
  checkPlatformRules(
    aDraft({ platform: 'instagram', postType: 'image', content: 'Sunset', media: images(1), ...overrides }),
    kindFromType,
  );

const tags = (prefix: '#' | '@', count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}tag${i}`).join(' ');

describe('Instagram captions', () => {
  it('accept 2200 characters and reject 2201 with the limit', () => {
    expect(instagram({ content: 'a'.repeat(2200) })).toEqual([]);
    expect(instagram({ content: 'a'.repeat(2201) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 2200 }),
    ]);
  });

  it('accept 30 hashtags and reject 31', () => {
    expect(instagram({ content: tags('#', 30) })).toEqual([]);
    expect(instagram({ content: tags('#', 31) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TOO_MANY_HASHTAGS', limit: 30 }),
    ]);
  });

  it('accept 20 mentions and reject 21', () => {
    expect(instagram({ content: tags('@', 20) })).toEqual([]);
    expect(instagram({ content: tags('@', 21) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TOO_MANY_MENTIONS', limit: 20 }),
    ]);
  });

  it('report length, hashtags and mentions together', () => {
    // Prepare
    const caption = `${tags('#', 31)} ${tags('@', 21)} ${'x'.repeat(2200)}`;

    // Act / Assess
    expect(codes(instagram({ content: caption }))).toEqual([
      'TEXT_TOO_LONG',
      'TOO_MANY_HASHTAGS',
      'TOO_MANY_MENTIONS',
    ]);
  });
});

describe('countHashtags and countMentions', () => {
  it('count tags in any script and skip ones glued to a word, e-mail addresses and URL fragments', () => {
    expect(countHashtags('#sunset #日没 #día a#b https://x.com/#top #')).toBe(3);
    expect(countMentions('@anna @b.o_b mail me at anna@example.com')).toBe(2);
  });

  it('count repeated tags each time', () => {
    expect(countHashtags('#a #a #a')).toBe(3);
  });
});

describe('Instagram post types', () => {
  it('require media for every type', () => {
    for (const postType of ['image', 'reel', 'story', 'carousel'] as const) {
      expect(codes(instagram({ postType, media: [] }))).toEqual(['MEDIA_REQUIRED']);
    }
  });

  it('take exactly one image in an image post', () => {
    expect(instagram({ media: images(2) })).toEqual([
      expect.objectContaining({ code: 'TOO_MANY_MEDIA', limit: 1 }),
    ]);
    expect(codes(instagram({ media: videos(1) }))).toEqual(['MEDIA_KIND_NOT_ALLOWED']);
  });

  it('take exactly one video in a reel', () => {
    expect(instagram({ postType: 'reel', media: videos(1) })).toEqual([]);
    expect(codes(instagram({ postType: 'reel', media: images(1) }))).toEqual(['MEDIA_KIND_NOT_ALLOWED']);
    expect(codes(instagram({ postType: 'reel', media: videos(2) }))).toEqual(['TOO_MANY_MEDIA']);
  });

  it('take one image or one video in a story', () => {
    expect(instagram({ postType: 'story', content: '', media: images(1) })).toEqual([]);
    expect(instagram({ postType: 'story', content: '', media: videos(1) })).toEqual([]);
    expect(codes(instagram({ postType: 'story', media: [...images(1), ...videos(1)] }))).toEqual([
      'TOO_MANY_MEDIA',
    ]);
  });

  it('accept a carousel of 2 to 10 mixed images and videos', () => {
    expect(instagram({ postType: 'carousel', media: [...images(1), ...videos(1)] })).toEqual([]);
    expect(instagram({ postType: 'carousel', media: [...images(5), ...videos(5)] })).toEqual([]);
  });

  it('reject a carousel of 1 or 11', () => {
    expect(instagram({ postType: 'carousel', media: images(1) })).toEqual([
      expect.objectContaining({ code: 'TOO_FEW_MEDIA', limit: 2 }),
    ]);
    expect(instagram({ postType: 'carousel', media: images(11) })).toEqual([
      expect.objectContaining({ code: 'TOO_MANY_MEDIA', limit: 10 }),
    ]);
  });

  it('count carousel items for array content', () => {
    // Prepare
    const item = (i: number): ContentItem => ({ text: i === 0 ? 'Caption' : undefined, media: images(1) });

    // Act / Assess
    expect(
      instagram({ postType: 'carousel', content: Array.from({ length: 10 }, (_, i) => item(i)), media: [] }),
    ).toEqual([]);
    expect(
      instagram({ postType: 'carousel', content: Array.from({ length: 11 }, (_, i) => item(i)), media: [] }),
    ).toEqual([expect.objectContaining({ field: 'content', code: 'TOO_MANY_ITEMS', limit: 10 })]);
  });
});
