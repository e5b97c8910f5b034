import { describe, expect, it } from 'vitest';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { aDraft, codes, images, kindFromType, videos } from './drafts.js';

const tiktok = (overrides: Partial<PostDraft>) =>
  checkPlatformRules(
    aDraft({ platform: 'tiktok', postType: 'video', content: 'Dance', media: videos(1), ...overrides }),
    kindFromType,
  );

describe('TikTok video posts', () => {
  it('accept a 2200-unit title and reject 2201 with the limit', () => {
    expect(tiktok({ content: 'a'.repeat(2200) })).toEqual([]);
    expect(tiktok({ content: 'a'.repeat(2201) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 2200 }),
    ]);
  });

  it('count the title in UTF-16 units, so an emoji counts 2', () => {
    expect(tiktok({ content: '🎵'.repeat(1100) })).toEqual([]);
    expect(codes(tiktok({ content: `${'🎵'.repeat(1100)}a` }))).toEqual(['TEXT_TOO_LONG']);
  });

  it('take exactly one video', () => {
    expect(codes(tiktok({ media: [] }))).toEqual(['MEDIA_REQUIRED']);
    expect(codes(tiktok({ media: videos(2) }))).toEqual(['TOO_MANY_MEDIA']);
    expect(tiktok({ media: images(1) })).toEqual([
      expect.objectContaining({ field: 'media[0]', code: 'MEDIA_KIND_NOT_ALLOWED' }),
    ]);
  });
});

describe('TikTok photo posts (carousel)', () => {
  it('accept a single photo: the doc allows 1 to 35', () => {
    expect(tiktok({ postType: 'carousel', media: images(1) })).toEqual([]);
  });

  it('accept 35 photos and reject 36 with the limit', () => {
    expect(tiktok({ postType: 'carousel', media: images(35) })).toEqual([]);
    expect(tiktok({ postType: 'carousel', media: images(36) })).toEqual([
      expect.objectContaining({ field: 'media', code: 'TOO_MANY_MEDIA', limit: 35 }),
    ]);
  });

  it('take images only', () => {
    expect(tiktok({ postType: 'carousel', media: [...images(2), ...videos(1)] })).toEqual([
      expect.objectContaining({ field: 'media[2]', code: 'MEDIA_KIND_NOT_ALLOWED' }),
    ]);
  });

  it('require a photo', () => {
    expect(codes(tiktok({ postType: 'carousel', media: [] }))).toEqual(['MEDIA_REQUIRED']);
  });

  it('accept a 4000-unit description and reject 4001', () => {
    expect(tiktok({ postType: 'carousel', media: images(2), content: 'a'.repeat(4000) })).toEqual([]);
    expect(tiktok({ postType: 'carousel', media: images(2), content: 'a'.repeat(4001) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 4000 }),
    ]);
  });
});
