import { describe, expect, it } from 'vitest';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { ContentItem, MediaRef, PostDraft } from '../../../shared/domain/posts.js';
import { aDraft, codes, documents, images, kindFromType, videos } from './drafts.js';

const linkedin = (overrides: Partial<PostDraft>) =>
  checkPlatformRules(aDraft({ platform: 'linkedin', content: 'Hello network', ...overrides }), kindFromType);

const slides = (media: MediaRef[]): ContentItem[] =>
  media.map((ref, i) => ({ text: i === 0 ? 'Caption' : '', media: [ref] }));

describe('LinkedIn commentary', () => {
  it('accepts 3000 characters', () => {
    expect(linkedin({ postType: 'text', content: 'a'.repeat(3000) })).toEqual([]);
  });

  it('rejects 3001 characters with the limit 3000', () => {
    expect(linkedin({ postType: 'text', content: 'a'.repeat(3001) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 3000 }),
    ]);
  });

  it('counts an emoji as one character (code points, not UTF-16 units)', () => {
    // Prepare: 3000 emoji are 6000 UTF-16 units
    const text = '🚀'.repeat(3000);

    // Act / Assess
    expect(linkedin({ postType: 'text', content: text })).toEqual([]);
    expect(codes(linkedin({ postType: 'text', content: `${text}!` }))).toEqual(['TEXT_TOO_LONG']);
  });
});

describe('LinkedIn text posts', () => {
  it('require text', () => {
    expect(codes(linkedin({ postType: 'text', content: '' }))).toEqual(['TEXT_REQUIRED']);
  });

  it('take no media', () => {
    expect(linkedin({ postType: 'text', media: images(1) })).toEqual([
      expect.objectContaining({ field: 'media', code: 'MEDIA_NOT_ALLOWED' }),
    ]);
  });
});

describe('LinkedIn single-media posts', () => {
  it.each([
    ['image', images],
    ['video', videos],
    ['document', documents],
  ] as const)('a %s post accepts exactly one of its kind', (postType, make) => {
    expect(linkedin({ postType, media: make(1) })).toEqual([]);
    expect(linkedin({ postType, media: make(2) })).toEqual([
      expect.objectContaining({ field: 'media', code: 'TOO_MANY_MEDIA', limit: 1 }),
    ]);
    expect(linkedin({ postType, media: [] })).toEqual([
      expect.objectContaining({ field: 'media', code: 'MEDIA_REQUIRED', limit: 1 }),
    ]);
  });

  it('accepts commentary-less media posts', () => {
    expect(linkedin({ postType: 'image', content: '', media: images(1) })).toEqual([]);
  });

  it('rejects a document in an image post as the wrong kind (documents are fine on LinkedIn)', () => {
    expect(linkedin({ postType: 'image', media: documents(1) })).toEqual([
      expect.objectContaining({ field: 'media[0]', code: 'MEDIA_KIND_NOT_ALLOWED' }),
    ]);
  });

  it('rejects an image in a document post', () => {
    expect(codes(linkedin({ postType: 'document', media: images(1) }))).toEqual(['MEDIA_KIND_NOT_ALLOWED']);
  });

  it('rejects an image in a video post', () => {
    expect(codes(linkedin({ postType: 'video', media: images(1) }))).toEqual(['MEDIA_KIND_NOT_ALLOWED']);
  });
});

describe('LinkedIn carousels (MultiImage)', () => {
  it('accept 2 and 20 images in top-level media with string content', () => {
    expect(linkedin({ postType: 'carousel', media: images(2) })).toEqual([]);
    expect(linkedin({ postType: 'carousel', media: images(20) })).toEqual([]);
  });

  it('reject 1 image with the minimum 2 and 21 with the maximum 20', () => {
    expect(linkedin({ postType: 'carousel', media: images(1) })).toEqual([
      expect.objectContaining({ field: 'media', code: 'TOO_FEW_MEDIA', limit: 2 }),
    ]);
    expect(linkedin({ postType: 'carousel', media: images(21) })).toEqual([
      expect.objectContaining({ field: 'media', code: 'TOO_MANY_MEDIA', limit: 20 }),
    ]);
  });

  it('accept array content with one image per item, 2 to 20 items', () => {
    expect(linkedin({ postType: 'carousel', content: slides(images(2)) })).toEqual([]);
    expect(linkedin({ postType: 'carousel', content: slides(images(20)) })).toEqual([]);
    expect(linkedin({ postType: 'carousel', content: slides(images(21)) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TOO_MANY_ITEMS', limit: 20 }),
    ]);
    expect(linkedin({ postType: 'carousel', content: slides(images(1)) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TOO_FEW_ITEMS', limit: 2 }),
    ]);
  });

  it('take images only', () => {
    expect(linkedin({ postType: 'carousel', media: [...images(1), ...videos(1)] })).toEqual([
      expect.objectContaining({ field: 'media[1]', code: 'MEDIA_KIND_NOT_ALLOWED' }),
    ]);
  });

  it('need exactly one medium per item and text only on the first item', () => {
    // Prepare
    const content: ContentItem[] = [
      { text: 'Caption', media: images(1) },
      { text: 'Slide two says', media: images(2) },
      { media: [] },
    ];

    // Act
    const violations = linkedin({ postType: 'carousel', content });

    // Assess
    expect(violations).toEqual([
      expect.objectContaining({ field: 'content[1].text', code: 'CONTENT_SHAPE' }),
      expect.objectContaining({ field: 'content[1].media', code: 'TOO_MANY_MEDIA', limit: 1 }),
      expect.objectContaining({ field: 'content[2].media', code: 'MEDIA_REQUIRED', limit: 1 }),
    ]);
  });
});
