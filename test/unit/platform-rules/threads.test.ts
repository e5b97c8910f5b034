import { describe, expect, it } from 'vitest';
import { platformOptionsInput, platformOptionsViolations } from '../../../shared/domain/platform-options.js';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { distinctLinks, threadsTextLength } from '../../../shared/networks/threads/text-length.js';
import { aDraft, codes, documents, images, kindFromType, videos } from './drafts.js';

const threads = (overrides: Partial<PostDraft>) =>
  checkPlatformRules(
    aDraft({ platform: 'threads', postType: 'text', content: 'Hello', ...overrides }),
    kindFromType,
  );

describe('Threads text length: 500, an emoji counting its UTF-8 bytes', () => {
  it('counts letters one each and each emoji by its bytes (flags and skin tones as one grapheme)', () => {
    expect(threadsTextLength('hello')).toBe(5);
    expect(threadsTextLength('😀')).toBe(4);
    expect(threadsTextLength('👍🏽')).toBe(8);
    expect(threadsTextLength('🇫🇷')).toBe(8);
    expect(threadsTextLength('é漢')).toBe(2);
  });

  it('accepts 500 and refuses 501 by that count, with the limit', () => {
    expect(threads({ content: 'a'.repeat(500) })).toEqual([]);
    expect(threads({ content: `${'😀'.repeat(124)}abcd` })).toEqual([]);
    expect(threads({ content: `${'😀'.repeat(124)}abcde` })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 500 }),
    ]);
  });

  it('allows 5 distinct links, the link card included, and refuses a sixth', () => {
    const five = Array.from({ length: 5 }, (_, i) => `https://example.com/${i}`).join(' ');
    expect(distinctLinks(`${five} https://example.com/0.`)).toBe(5);
    expect(threads({ content: five })).toEqual([]);
    expect(
      threads({
        content: five,
        platformOptions: { threads: { linkAttachment: 'https://example.com/card' } },
      }),
    ).toEqual([expect.objectContaining({ field: 'content', code: 'CONTENT_SHAPE', limit: 5 })]);
  });
});

describe('Threads post shapes', () => {
  it('a text post has text and no media', () => {
    expect(codes(threads({ content: '  ' }))).toEqual(['TEXT_REQUIRED']);
    expect(codes(threads({ media: images(1) }))).toEqual(['MEDIA_NOT_ALLOWED']);
  });

  it('an image post one image, a video post one video; no documents', () => {
    expect(threads({ postType: 'image', media: images(1) })).toEqual([]);
    expect(codes(threads({ postType: 'image', media: images(2) }))).toEqual(['TOO_MANY_MEDIA']);
    expect(threads({ postType: 'video', media: videos(1) })).toEqual([]);
    expect(codes(threads({ postType: 'video', media: images(1) }))).toEqual(['MEDIA_KIND_NOT_ALLOWED']);
    expect(codes(threads({ postType: 'image', media: documents(1) }))).toContain('DOCUMENT_NOT_ALLOWED');
  });

  it('a carousel takes 2 to 20 images and videos mixed', () => {
    expect(threads({ postType: 'carousel', media: [...images(10), ...videos(10)] })).toEqual([]);
    expect(codes(threads({ postType: 'carousel', media: images(1) }))).toEqual(['TOO_FEW_MEDIA']);
    expect(codes(threads({ postType: 'carousel', media: images(21) }))).toEqual(['TOO_MANY_MEDIA']);
  });

  it('a thread is 2 to 25 posts, each with text or media (up to 20), each within 500', () => {
    const item = (text: string) => ({ text });
    expect(
      threads({ postType: 'thread', content: [item('One'), { text: 'Two', media: images(3) }] }),
    ).toEqual([]);
    expect(codes(threads({ postType: 'thread', content: 'One string' }))).toEqual(['CONTENT_SHAPE']);
    expect(codes(threads({ postType: 'thread', content: [item('Only')] }))).toEqual(['TOO_FEW_ITEMS']);
    expect(
      codes(threads({ postType: 'thread', content: Array.from({ length: 26 }, () => item('x')) })),
    ).toEqual(['TOO_MANY_ITEMS']);
    expect(codes(threads({ postType: 'thread', content: [item('One'), item(' ')] }))).toEqual([
      'TEXT_REQUIRED',
    ]);
    expect(threads({ postType: 'thread', content: [item('One'), item('a'.repeat(501))] })).toEqual([
      expect.objectContaining({ field: 'content[1].text', code: 'TEXT_TOO_LONG' }),
    ]);
  });

  it('refuses the post types Threads does not have', () => {
    expect(codes(threads({ postType: 'reel', media: videos(1) }))).toContain('POST_TYPE_NOT_ALLOWED');
  });
});

describe('platformOptions.threads', () => {
  const parse = (threads: unknown) => platformOptionsInput.safeParse({ threads });

  it('reads the five options and refuses unknown ones or bad values', () => {
    expect(
      parse({
        replyControl: 'mentioned_only',
        topicTag: 'Open source',
        linkAttachment: 'https://example.com',
        quotePostId: '18000000000000001',
        replyToId: '18000000000000002',
      }).success,
    ).toBe(true);
    expect(parse({ replyControl: 'nobody' }).success).toBe(false);
    expect(parse({ topicTag: 'a.b' }).success).toBe(false);
    expect(parse({ topicTag: 'x'.repeat(51) }).success).toBe(false);
    expect(parse({ linkAttachment: 'ftp://example.com' }).success).toBe(false);
    expect(parse({ quotePostId: 'abc' }).success).toBe(false);
    expect(parse({ poll: {} }).success).toBe(false);
  });

  it('takes linkAttachment on text posts only (422 otherwise)', () => {
    const draft = (postType: PostDraft['postType']) => ({
      platform: 'threads' as const,
      postType,
      platformOptions: { threads: { linkAttachment: 'https://example.com' } },
    });
    expect(platformOptionsViolations(draft('text'))).toEqual([]);
    expect(platformOptionsViolations(draft('image'))).toEqual([
      expect.objectContaining({
        field: 'platformOptions.threads.linkAttachment',
        code: 'PLATFORM_OPTION_NOT_ALLOWED',
      }),
    ]);
  });
});

describe('Threads: a post’s link (its link_attachment card)', () => {
  it('takes a text post’s link, counting it among the 5 distinct links', () => {
    expect(threads({ link: { url: 'https://example.com/card' } })).toEqual([]);
    const five = Array.from({ length: 5 }, (_, i) => `https://example.com/${i}`).join(' ');
    expect(threads({ content: five, link: { url: 'https://example.com/card' } })).toEqual([
      expect.objectContaining({ field: 'content', code: 'CONTENT_SHAPE', limit: 5 }),
    ]);
  });

  it('refuses a link given both as the post’s link and as linkAttachment', () => {
    expect(
      threads({
        link: { url: 'https://example.com/a' },
        platformOptions: { threads: { linkAttachment: 'https://example.com/a' } },
      }),
    ).toEqual([
      expect.objectContaining({
        field: 'platformOptions.threads.linkAttachment',
        code: 'PLATFORM_OPTION_NOT_ALLOWED',
      }),
    ]);
  });
});
