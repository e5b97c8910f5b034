import { describe, expect, it } from 'vitest';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { ContentItem } from '../../../shared/domain/posts.js';
import { X_MAX_WEIGHTED_LENGTH } from '../../../shared/networks/x/rules.js';
import { aDraft, codes, documents, images, kindFromType, unknownMedia, videos } from './drafts.js';

const tweet = (content: string | ContentItem[], overrides = {}) =>
  checkPlatformRules(aDraft({ platform: 'twitter', postType: 'text', content, ...overrides }), kindFromType);

const thread = (items: ContentItem[]) =>
  checkPlatformRules(aDraft({ platform: 'twitter', postType: 'thread', content: items }), kindFromType);

const posts = (count: number): ContentItem[] =>
  Array.from({ length: count }, (_, i) => ({ text: `Post ${i + 1}` }));

describe('X text length', () => {
  it('accepts 280 Latin characters', () => {
    expect(tweet('a'.repeat(280))).toEqual([]);
  });

  it('rejects 281 Latin characters with the limit and the field', () => {
    // Act
    const violations = tweet('a'.repeat(281));

    // Assess
    expect(violations).toEqual([
      { field: 'content', code: 'TEXT_TOO_LONG', message: expect.stringContaining('281'), limit: 280 },
    ]);
  });

  it('counts a URL as 23, so a 300-character URL with short text fits', () => {
    // Prepare
    const url = `https://example.com/${'a'.repeat(280)}`;

    // Act / Assess
    expect(url.length).toBeGreaterThan(X_MAX_WEIGHTED_LENGTH);
    expect(tweet(`Read this: ${url}`)).toEqual([]);
  });

  it('counts CJK characters double: 140 fit, 141 do not', () => {
    expect(tweet('漢'.repeat(140))).toEqual([]);
    expect(tweet('漢'.repeat(141))).toEqual([expect.objectContaining({ code: 'TEXT_TOO_LONG', limit: 280 })]);
  });

  it('counts an emoji double: 140 fit, 141 do not', () => {
    expect(tweet('🙂'.repeat(140))).toEqual([]);
    expect(codes(tweet('🙂'.repeat(141)))).toEqual(['TEXT_TOO_LONG']);
  });
});

describe('X text posts', () => {
  it('requires text', () => {
    expect(tweet('   ')).toEqual([expect.objectContaining({ field: 'content', code: 'TEXT_REQUIRED' })]);
  });

  it('takes no media', () => {
    expect(tweet('Hi', { media: images(1) })).toEqual([
      expect.objectContaining({ field: 'media', code: 'MEDIA_NOT_ALLOWED', limit: 0 }),
    ]);
  });

  it('accepts a single-item array and reports its text under content[0].text', () => {
    expect(tweet([{ text: 'Hi' }])).toEqual([]);
    expect(tweet([{ text: 'a'.repeat(281) }])).toEqual([
      expect.objectContaining({ field: 'content[0].text', code: 'TEXT_TOO_LONG' }),
    ]);
  });

  it('rejects an array of several items: that is a thread', () => {
    expect(tweet([{ text: 'One' }, { text: 'Two' }])).toEqual([
      expect.objectContaining({ field: 'content', code: 'TOO_MANY_ITEMS', limit: 1 }),
    ]);
  });

  it('rejects an empty array', () => {
    expect(codes(tweet([]))).toEqual(['TOO_FEW_ITEMS']);
  });
});

describe('X image posts', () => {
  const imagePost = (media = images(1), content = '') =>
    checkPlatformRules(aDraft({ platform: 'twitter', postType: 'image', content, media }), kindFromType);

  it('accepts 4 images without text', () => {
    expect(imagePost(images(4))).toEqual([]);
  });

  it('rejects 5 images with the limit 4', () => {
    expect(imagePost(images(5))).toEqual([
      expect.objectContaining({ field: 'media', code: 'TOO_MANY_MEDIA', limit: 4 }),
    ]);
  });

  it('requires an image', () => {
    expect(imagePost([], 'Just words')).toEqual([
      expect.objectContaining({ field: 'media', code: 'MEDIA_REQUIRED', limit: 1 }),
    ]);
  });

  it('rejects a video among the images at its own path', () => {
    expect(imagePost([...images(1), ...videos(1)])).toEqual([
      expect.objectContaining({ field: 'media[1]', code: 'MEDIA_KIND_NOT_ALLOWED' }),
    ]);
  });

  it('counts media of unknown kind toward the limit but skips their kind', () => {
    expect(imagePost([unknownMedia()])).toEqual([]);
    expect(codes(imagePost([...images(4), unknownMedia()]))).toEqual(['TOO_MANY_MEDIA']);
  });

  it('reports item media under content[0].media for single-item array content', () => {
    // Act
    const violations = checkPlatformRules(
      aDraft({ platform: 'twitter', postType: 'image', content: [{ text: 'x', media: videos(1) }] }),
      kindFromType,
    );

    // Assess
    expect(violations).toEqual([
      expect.objectContaining({ field: 'content[0].media[0]', code: 'MEDIA_KIND_NOT_ALLOWED' }),
    ]);
  });
});

describe('X video posts', () => {
  const videoPost = (media = videos(1)) =>
    checkPlatformRules(
      aDraft({ platform: 'twitter', postType: 'video', content: 'Watch', media }),
      kindFromType,
    );

  it('accepts exactly one video', () => {
    expect(videoPost(videos(1))).toEqual([]);
  });

  it('rejects a second video with the limit 1', () => {
    expect(videoPost(videos(2))).toEqual([expect.objectContaining({ code: 'TOO_MANY_MEDIA', limit: 1 })]);
  });

  it('rejects an image', () => {
    expect(videoPost(images(1))).toEqual([
      expect.objectContaining({ field: 'media[0]', code: 'MEDIA_KIND_NOT_ALLOWED' }),
    ]);
  });

  it('requires the video', () => {
    expect(codes(videoPost([]))).toEqual(['MEDIA_REQUIRED']);
  });
});

describe('X threads', () => {
  it('accepts 2 posts and 25 posts', () => {
    expect(thread(posts(2))).toEqual([]);
    expect(thread(posts(25))).toEqual([]);
  });

  it('rejects 1 post with the minimum 2', () => {
    expect(thread(posts(1))).toEqual([
      expect.objectContaining({ field: 'content', code: 'TOO_FEW_ITEMS', limit: 2 }),
    ]);
  });

  it('rejects 26 posts with the maximum 25', () => {
    expect(thread(posts(26))).toEqual([
      expect.objectContaining({ field: 'content', code: 'TOO_MANY_ITEMS', limit: 25 }),
    ]);
  });

  it('rejects string content: a thread is one item per post', () => {
    expect(
      checkPlatformRules(
        aDraft({ platform: 'twitter', postType: 'thread', content: 'One post' }),
        kindFromType,
      ),
    ).toEqual([expect.objectContaining({ field: 'content', code: 'CONTENT_SHAPE' })]);
  });

  it('limits each post to 280 weighted characters', () => {
    expect(thread([{ text: 'a'.repeat(280) }, { text: 'b'.repeat(280) }])).toEqual([]);
    expect(thread([{ text: 'ok' }, { text: 'b'.repeat(281) }])).toEqual([
      expect.objectContaining({ field: 'content[1].text', code: 'TEXT_TOO_LONG', limit: 280 }),
    ]);
  });

  it('accepts a post with media and no text, and rejects one with neither', () => {
    expect(thread([{ text: 'Look' }, { media: images(2) }])).toEqual([]);
    expect(thread([{ text: 'Look' }, { text: ' ', media: [] }])).toEqual([
      expect.objectContaining({ field: 'content[1].text', code: 'TEXT_REQUIRED' }),
    ]);
  });

  it('applies the per-post media rule to each item: 4 images or 1 video', () => {
    expect(
      thread([
        { text: 'a', media: images(4) },
        { text: 'b', media: videos(1) },
      ]),
    ).toEqual([]);
    expect(thread([{ text: 'a', media: images(5) }, { text: 'b' }])).toEqual([
      expect.objectContaining({ field: 'content[0].media', code: 'TOO_MANY_MEDIA', limit: 4 }),
    ]);
  });

  it('rejects a video mixed with an image in one post', () => {
    expect(thread([{ text: 'a', media: [...videos(1), ...images(1)] }, { text: 'b' }])).toEqual([
      expect.objectContaining({ field: 'content[0].media', code: 'TOO_MANY_MEDIA', limit: 1 }),
    ]);
  });

  it('reports a too-long post and an over-full post together, each at its path', () => {
    // Prepare
    const items: ContentItem[] = [
      { text: 'a'.repeat(300) },
      { text: 'Pics', media: images(5) },
      { text: 'Fine' },
    ];

    // Act
    const violations = thread(items);

    // Assess
    expect(violations).toEqual([
      expect.objectContaining({ field: 'content[0].text', code: 'TEXT_TOO_LONG', limit: 280 }),
      expect.objectContaining({ field: 'content[1].media', code: 'TOO_MANY_MEDIA', limit: 4 }),
    ]);
  });

  it('reports a document in a thread item once, as DOCUMENT_NOT_ALLOWED', () => {
    expect(thread([{ text: 'a', media: documents(1) }, { text: 'b' }])).toEqual([
      expect.objectContaining({ field: 'content[0].media[0]', code: 'DOCUMENT_NOT_ALLOWED' }),
    ]);
  });
});
