import { describe, expect, it } from 'vitest';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { MediaKindLookup } from '../../../shared/domain/posts.js';
import { aDraft, codes, documents, images, kindFromType, unknownMedia, videos } from './drafts.js';

describe('post type per platform', () => {
  it('rejects a post type the platform does not take, naming the allowed ones', () => {
    // Act
    const violations = checkPlatformRules(
      aDraft({ platform: 'twitter', postType: 'carousel', content: 'Hi', media: images(2) }),
      kindFromType,
    );

    // Assess
    expect(violations).toEqual([
      {
        field: 'postType',
        code: 'POST_TYPE_NOT_ALLOWED',
        message: expect.stringContaining('text, image, video, thread'),
      },
    ]);
  });

  it('still checks the text of a disallowed type but not its shape', () => {
    // Prepare: a reel is not an X type; the text is too long; the missing video would matter to a reel
    const draft = aDraft({ platform: 'twitter', postType: 'reel', content: 'a'.repeat(281), media: [] });

    // Act / Assess
    expect(codes(checkPlatformRules(draft, kindFromType))).toEqual([
      'POST_TYPE_NOT_ALLOWED',
      'TEXT_TOO_LONG',
    ]);
  });

  it('checks the TikTok video title for a type TikTok does not take', () => {
    const draft = aDraft({ platform: 'tiktok', postType: 'text', content: 'a'.repeat(2201) });
    expect(checkPlatformRules(draft, kindFromType)).toEqual([
      expect.objectContaining({ code: 'POST_TYPE_NOT_ALLOWED' }),
      expect.objectContaining({ code: 'TEXT_TOO_LONG', limit: 2200 }),
    ]);
  });

  it('checks the YouTube title for a type YouTube does not take', () => {
    const draft = aDraft({ platform: 'youtube', postType: 'image', content: '<title>', media: images(1) });
    expect(codes(checkPlatformRules(draft, kindFromType))).toEqual([
      'POST_TYPE_NOT_ALLOWED',
      'INVALID_CHARACTERS',
    ]);
  });

  it.each([
    ['twitter', 'text'],
    ['linkedin', 'document'],
    ['instagram', 'story'],
    ['tiktok', 'carousel'],
    ['youtube', 'short'],
  ] as const)('lets %s take %s', (platform, postType) => {
    const draft = aDraft({ platform, postType });
    expect(codes(checkPlatformRules(draft, kindFromType))).not.toContain('POST_TYPE_NOT_ALLOWED');
  });
});

describe('media placement', () => {
  it('rejects top-level media beside array content', () => {
    // Act
    const violations = checkPlatformRules(
      aDraft({
        platform: 'twitter',
        postType: 'thread',
        content: [{ text: 'One' }, { text: 'Two' }],
        media: images(1),
      }),
      kindFromType,
    );

    // Assess
    expect(violations).toEqual([expect.objectContaining({ field: 'media', code: 'MEDIA_MISPLACED' })]);
  });

  it('accepts top-level media with string content', () => {
    const draft = aDraft({ platform: 'twitter', postType: 'image', content: 'Look', media: images(2) });
    expect(checkPlatformRules(draft, kindFromType)).toEqual([]);
  });
});

describe('documents outside LinkedIn', () => {
  it.each([
    ['twitter', 'image'],
    ['instagram', 'image'],
    ['tiktok', 'carousel'],
    ['youtube', 'video'],
  ] as const)('%s rejects a document once, at its path', (platform, postType) => {
    // Prepare
    const draft = aDraft({ platform, postType, content: 'Report', media: documents(1) });

    // Act
    const violations = checkPlatformRules(draft, kindFromType);

    // Assess: no second MEDIA_KIND_NOT_ALLOWED for the same reference
    expect(violations).toEqual([
      expect.objectContaining({ field: 'media[0]', code: 'DOCUMENT_NOT_ALLOWED' }),
    ]);
  });

  it('reports documents in items and in misplaced top-level media', () => {
    // Prepare
    const draft = aDraft({
      platform: 'twitter',
      postType: 'thread',
      content: [{ text: 'One' }, { text: 'Two', media: [...images(1), ...documents(1)] }],
      media: documents(1),
    });

    // Act
    const violations = checkPlatformRules(draft, kindFromType);

    // Assess
    expect(violations.map((v) => [v.code, v.field])).toEqual([
      ['MEDIA_MISPLACED', 'media'],
      ['DOCUMENT_NOT_ALLOWED', 'media[0]'],
      ['DOCUMENT_NOT_ALLOWED', 'content[1].media[1]'],
    ]);
  });

  it('reports a document even when the post type is not allowed', () => {
    const draft = aDraft({
      platform: 'instagram',
      postType: 'document',
      content: 'Deck',
      media: documents(1),
    });
    expect(codes(checkPlatformRules(draft, kindFromType))).toEqual([
      'POST_TYPE_NOT_ALLOWED',
      'DOCUMENT_NOT_ALLOWED',
    ]);
  });

  it('does not report documents on LinkedIn', () => {
    const draft = aDraft({
      platform: 'linkedin',
      postType: 'document',
      content: 'Deck',
      media: documents(1),
    });
    expect(checkPlatformRules(draft, kindFromType)).toEqual([]);
  });
});

describe('media of unknown kind', () => {
  it('skips kind rules for references the lookup cannot resolve', () => {
    // Prepare: the caller already reported the unknown id
    const draft = aDraft({
      platform: 'youtube',
      postType: 'video',
      content: 'Title',
      media: [unknownMedia()],
    });

    // Act / Assess
    expect(checkPlatformRules(draft, kindFromType)).toEqual([]);
  });

  it('asks the lookup about every reference', () => {
    // Prepare
    const asked: string[] = [];
    const lookup: MediaKindLookup = (ref) => {
      asked.push(ref.url ?? ref.id ?? '');
      return ref.type;
    };
    const draft = aDraft({
      platform: 'instagram',
      postType: 'carousel',
      content: 'Trip',
      media: [...images(1), ...videos(1)],
    });

    // Act
    checkPlatformRules(draft, lookup);

    // Assess
    expect(new Set(asked)).toEqual(
      new Set(['https://cdn.example.com/image-0', 'https://cdn.example.com/video-0']),
    );
  });
});

describe('reporting', () => {
  it('reports every violation at once, in a stable order', () => {
    // Prepare: wrong type, misplaced media, a document, a long item, an over-full item
    const draft = aDraft({
      platform: 'twitter',
      postType: 'thread',
      content: [
        { text: 'a'.repeat(281), media: documents(1) },
        { text: 'b', media: images(5) },
        { text: '' },
      ],
      media: images(1),
    });

    // Act
    const first = checkPlatformRules(draft, kindFromType);
    const second = checkPlatformRules(draft, kindFromType);

    // Assess
    expect(first.map((v) => [v.code, v.field])).toEqual([
      ['MEDIA_MISPLACED', 'media'],
      ['DOCUMENT_NOT_ALLOWED', 'content[0].media[0]'],
      ['TEXT_TOO_LONG', 'content[0].text'],
      ['TOO_MANY_MEDIA', 'content[1].media'],
      ['TEXT_REQUIRED', 'content[2].text'],
    ]);
    expect(second).toEqual(first);
  });

  it('gives every violation a field, a code and a message, and a limit only where one applies', () => {
    // Act
    const violations = checkPlatformRules(
      aDraft({ platform: 'linkedin', postType: 'carousel', content: 'x'.repeat(3001), media: images(1) }),
      kindFromType,
    );

    // Assess
    expect(violations).toEqual([
      { field: 'content', code: 'TEXT_TOO_LONG', message: expect.any(String), limit: 3000 },
      { field: 'media', code: 'TOO_FEW_MEDIA', message: expect.any(String), limit: 2 },
    ]);
    expect(
      checkPlatformRules(aDraft({ platform: 'twitter', postType: 'story' }), kindFromType)[0],
    ).not.toHaveProperty('limit');
  });
});
