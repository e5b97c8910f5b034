import { describe, expect, it } from 'vitest';
import { platformOptionsInput, platformOptionsViolations } from '../../../shared/domain/platform-options.js';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { textWithLink } from '../../../shared/networks/x/link-text.js';
import { tweetIdOf } from '../../../shared/networks/x/tweet-ref.js';
import { aDraft, codes, images, kindFromType, videos } from './drafts.js';

const poll = { options: ['Tabs', 'Spaces'], durationMinutes: 1440 };
const optionsOf = (twitter: Record<string, unknown>) => platformOptionsInput.safeParse({ twitter });
const violationsOf = (postType: PostDraft['postType'], twitter: Record<string, unknown>) =>
  platformOptionsViolations({ platform: 'twitter', postType, platformOptions: { twitter } });
const check = (overrides: Partial<PostDraft>) =>
  checkPlatformRules(aDraft({ platform: 'twitter', ...overrides }), kindFromType);

describe('platformOptions.twitter: poll, quoteOf, replyTo, communityId', () => {
  it('takes a poll of 2–4 options of 1–25 characters lasting 5–10080 minutes, and refuses anything outside', () => {
    expect(optionsOf({ poll }).success).toBe(true);
    expect(optionsOf({ poll: { ...poll, options: ['Only one'] } }).success).toBe(false);
    expect(optionsOf({ poll: { ...poll, options: ['a', 'b', 'c', 'd', 'e'] } }).success).toBe(false);
    expect(optionsOf({ poll: { ...poll, options: ['a', 'x'.repeat(26)] } }).success).toBe(false);
    expect(optionsOf({ poll: { ...poll, options: ['a', ''] } }).success).toBe(false);
    expect(optionsOf({ poll: { ...poll, durationMinutes: 4 } }).success).toBe(false);
    expect(optionsOf({ poll: { ...poll, durationMinutes: 10_081 } }).success).toBe(false);
    expect(optionsOf({ poll: { ...poll, durationMinutes: 10_080 } }).success).toBe(true);
  });

  it('takes a post as an id or an x.com / twitter.com address, and a Community as digits', () => {
    expect(optionsOf({ quoteOf: '1346889436626259968' }).success).toBe(true);
    expect(optionsOf({ replyTo: 'https://twitter.com/jack/status/20?s=20' }).success).toBe(true);
    expect(optionsOf({ quoteOf: 'https://example.com/jack/status/20' }).success).toBe(false);
    expect(optionsOf({ communityId: '1146654567674912769' }).success).toBe(true);
    expect(optionsOf({ communityId: 'https://x.com/i/communities/1' }).success).toBe(false);
  });

  it('reads the id out of every address form people copy', () => {
    expect(tweetIdOf('https://x.com/jack/status/20')).toBe('20');
    expect(tweetIdOf('https://mobile.twitter.com/jack/status/20/photo/1')).toBe('20');
    expect(tweetIdOf('https://x.com/i/web/status/1346889436626259968')).toBe('1346889436626259968');
    expect(tweetIdOf(' 42 ')).toBe('42');
    expect(tweetIdOf('https://x.com/jack')).toBeUndefined();
    expect(tweetIdOf('12345678901234567890')).toBeUndefined();
  });

  it('refuses a poll on an image, a video or a thread post, and with a quote, naming the field', () => {
    expect(violationsOf('text', { poll })).toEqual([]);
    for (const postType of ['image', 'video', 'thread'] as const) {
      expect(violationsOf(postType, { poll })).toEqual([
        expect.objectContaining({
          field: 'platformOptions.twitter.poll',
          code: 'PLATFORM_OPTION_NOT_ALLOWED',
        }),
      ]);
    }
    expect(violationsOf('text', { poll, quoteOf: '20' })).toEqual([
      expect.objectContaining({
        field: 'platformOptions.twitter.poll',
        code: 'PLATFORM_OPTION_NOT_ALLOWED',
        message: expect.stringContaining('quoted post'),
      }),
    ]);
  });

  it('lets a reply, a quote and a Community go on any post type, a thread included', () => {
    expect(violationsOf('thread', { replyTo: '20', quoteOf: '21', communityId: '22' })).toEqual([]);
    expect(violationsOf('image', { quoteOf: '21' })).toEqual([]);
  });
});

describe('X link: its URL in the first tweet, counted 23', () => {
  it('appends the URL on a line of its own unless the text holds it already', () => {
    expect(textWithLink('Read this', { url: 'https://example.com/a' })).toBe(
      'Read this\nhttps://example.com/a',
    );
    expect(textWithLink('Read https://example.com/a now', { url: 'https://example.com/a' })).toBe(
      'Read https://example.com/a now',
    );
    expect(textWithLink('', { url: 'https://example.com/a' })).toBe('https://example.com/a');
    expect(textWithLink('Plain', undefined)).toBe('Plain');
  });

  it('counts the appended URL as 23 and a newline: 256 characters fit beside it, 257 do not', () => {
    const link = { url: `https://example.com/${'a'.repeat(100)}` };
    expect(check({ content: 'a'.repeat(256), link })).toEqual([]);
    expect(check({ content: 'a'.repeat(257), link })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 280 }),
    ]);
  });

  it("takes a link beside media, and refuses a title, description or thumbnail (X reads the page's own)", () => {
    expect(check({ postType: 'image', media: images(2), link: { url: 'https://example.com' } })).toEqual([]);
    expect(codes(check({ link: { url: 'https://example.com', title: 'Mine' } }))).toEqual([
      'LINK_OVERRIDE_NOT_SUPPORTED',
    ]);
  });
});

describe('X first comment: a reply, held to a post’s rules', () => {
  it('takes 280 weighted characters and refuses 141 CJK characters (282 weighted, 141 code points) once', () => {
    expect(check({ firstComment: { text: '漢'.repeat(140) } })).toEqual([]);
    expect(check({ firstComment: { text: '漢'.repeat(141) } })).toEqual([
      expect.objectContaining({ field: 'firstComment.text', code: 'FIRST_COMMENT_TOO_LONG', limit: 280 }),
    ]);
  });

  it('reports 281 Latin characters once, not once per count', () => {
    expect(codes(check({ firstComment: { text: 'a'.repeat(281) } }))).toEqual(['FIRST_COMMENT_TOO_LONG']);
  });

  it('takes up to 4 images or one video, a video alone', () => {
    expect(check({ firstComment: { text: 'Pictures', media: images(4) } })).toEqual([]);
    expect(check({ firstComment: { text: 'A clip', media: videos(1) } })).toEqual([]);
    expect(check({ firstComment: { text: 'Both', media: [...videos(1), ...images(1)] } })).toEqual([
      expect.objectContaining({ field: 'firstComment.media', code: 'TOO_MANY_MEDIA', limit: 1 }),
    ]);
    expect(codes(check({ firstComment: { text: 'Five', media: images(5) } }))).toEqual(['TOO_MANY_MEDIA']);
  });
});
