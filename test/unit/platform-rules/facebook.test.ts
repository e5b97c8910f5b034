import { describe, expect, it } from 'vitest';
import { platformOptionsInput, platformOptionsViolations } from '../../../shared/domain/platform-options.js';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { MediaRef, PostDraft } from '../../../shared/domain/posts.js';
import { aDraft, codes, documents, images, kindFromType, videos } from './drafts.js';

const facebook = (overrides: Partial<PostDraft>, durationOf?: (ref: MediaRef) => number | undefined) =>
  checkPlatformRules(
    aDraft({ platform: 'facebook', postType: 'text', content: 'Fresh bread', ...overrides }),
    kindFromType,
    durationOf,
  );

describe('Facebook Pages post shapes and limits', () => {
  it('a message of 63,206 characters (code points) passes; one more is refused with the limit', () => {
    expect(facebook({ content: 'a'.repeat(63_206) })).toEqual([]);
    expect(facebook({ content: `${'😀'.repeat(63_205)}a` })).toEqual([]);
    expect(facebook({ content: 'a'.repeat(63_207) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 63_206 }),
    ]);
  });

  it('a text post needs text, or a link whose preview is the post; it takes no media', () => {
    expect(codes(facebook({ content: '  ' }))).toEqual(['TEXT_REQUIRED']);
    expect(
      facebook({ content: '', platformOptions: { facebook: { link: 'https://bakery.example' } } }),
    ).toEqual([]);
    expect(codes(facebook({ media: images(1) }))).toEqual(['MEDIA_NOT_ALLOWED']);
  });

  it('a photo post has one image; a video post and a reel one video; no documents', () => {
    expect(facebook({ postType: 'image', media: images(1) })).toEqual([]);
    expect(codes(facebook({ postType: 'image', media: images(2) }))).toEqual(['TOO_MANY_MEDIA']);
    expect(facebook({ postType: 'video', media: videos(1) })).toEqual([]);
    expect(facebook({ postType: 'reel', media: videos(1) })).toEqual([]);
    expect(codes(facebook({ postType: 'reel', media: images(1) }))).toEqual(['MEDIA_KIND_NOT_ALLOWED']);
    expect(codes(facebook({ postType: 'image', media: documents(1) }))).toContain('DOCUMENT_NOT_ALLOWED');
  });

  it('a multi-photo post (carousel) takes 2 to 10 images, no video', () => {
    expect(facebook({ postType: 'carousel', media: images(10) })).toEqual([]);
    expect(codes(facebook({ postType: 'carousel', media: images(1) }))).toEqual(['TOO_FEW_MEDIA']);
    expect(codes(facebook({ postType: 'carousel', media: images(11) }))).toEqual(['TOO_MANY_MEDIA']);
    expect(codes(facebook({ postType: 'carousel', media: [...images(1), ...videos(1)] }))).toEqual([
      'MEDIA_KIND_NOT_ALLOWED',
    ]);
  });

  it('a reel runs 3 to 90 seconds; a feed video up to 4 hours', () => {
    const seconds = (value: number) => () => value;
    expect(facebook({ postType: 'reel', media: videos(1) }, seconds(90))).toEqual([]);
    expect(codes(facebook({ postType: 'reel', media: videos(1) }, seconds(91)))).toEqual(['VIDEO_TOO_LONG']);
    expect(codes(facebook({ postType: 'reel', media: videos(1) }, seconds(2)))).toEqual(['VIDEO_TOO_SHORT']);
    expect(facebook({ postType: 'video', media: videos(1) }, seconds(3 * 3600))).toEqual([]);
    expect(codes(facebook({ postType: 'video', media: videos(1) }, seconds(4 * 3600 + 1)))).toEqual([
      'VIDEO_TOO_LONG',
    ]);
  });

  it('refuses the post types a Page does not publish', () => {
    expect(codes(facebook({ postType: 'story', media: images(1) }))).toContain('POST_TYPE_NOT_ALLOWED');
    expect(codes(facebook({ postType: 'thread', content: [{ text: 'a' }, { text: 'b' }] }))).toContain(
      'POST_TYPE_NOT_ALLOWED',
    );
  });
});

describe('platformOptions.facebook', () => {
  const parse = (facebook: unknown) => platformOptionsInput.safeParse({ facebook });

  it('reads link and title, and refuses unknown options or bad values', () => {
    expect(parse({ link: 'https://bakery.example/menu', title: 'Menu' }).success).toBe(true);
    expect(parse({ link: 'ftp://bakery.example' }).success).toBe(false);
    expect(parse({ link: 'not a url' }).success).toBe(false);
    expect(parse({ title: '' }).success).toBe(false);
    expect(parse({ title: 'x'.repeat(256) }).success).toBe(false);
    expect(parse({ published: false }).success).toBe(false);
  });

  it('takes link on text posts only and title on videos and reels only (422 otherwise)', () => {
    const draft = (postType: PostDraft['postType'], options: Record<string, string>) => ({
      platform: 'facebook' as const,
      postType,
      platformOptions: { facebook: options },
    });
    expect(platformOptionsViolations(draft('text', { link: 'https://bakery.example' }))).toEqual([]);
    expect(platformOptionsViolations(draft('reel', { title: 'Morning' }))).toEqual([]);
    expect(
      platformOptionsViolations(draft('image', { link: 'https://bakery.example', title: 'No' })),
    ).toEqual([
      expect.objectContaining({
        field: 'platformOptions.facebook.link',
        code: 'PLATFORM_OPTION_NOT_ALLOWED',
      }),
      expect.objectContaining({
        field: 'platformOptions.facebook.title',
        code: 'PLATFORM_OPTION_NOT_ALLOWED',
      }),
    ]);
  });
});

describe('Facebook: a post’s link (the feed post’s preview card)', () => {
  it('a text post may be its link alone, given as the post’s link', () => {
    expect(facebook({ content: '', link: { url: 'https://bakery.example/menu' } })).toEqual([]);
  });

  it('refuses a link given both as the post’s link and as platformOptions.facebook.link', () => {
    expect(
      facebook({
        link: { url: 'https://bakery.example/menu' },
        platformOptions: { facebook: { link: 'https://bakery.example/menu' } },
      }),
    ).toEqual([
      expect.objectContaining({
        field: 'platformOptions.facebook.link',
        code: 'PLATFORM_OPTION_NOT_ALLOWED',
      }),
    ]);
  });
});
