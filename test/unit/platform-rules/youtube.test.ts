import { describe, expect, it } from 'vitest';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { youtubeTitleAndDescription } from '../../../shared/networks/youtube/rules.js';
import { aDraft, codes, images, kindFromType, videos } from './drafts.js';

const youtube = (overrides: Partial<PostDraft>) =>
  checkPlatformRules(
    aDraft({ platform: 'youtube', postType: 'video', content: 'My video', media: videos(1), ...overrides }),
    kindFromType,
  );

describe('youtubeTitleAndDescription', () => {
  it('splits at the first newline: title, then everything else', () => {
    expect(youtubeTitleAndDescription('Title\nLine 1\nLine 2')).toEqual({
      title: 'Title',
      description: 'Line 1\nLine 2',
    });
  });

  it('gives an empty description when there is one line', () => {
    expect(youtubeTitleAndDescription('Only a title')).toEqual({ title: 'Only a title', description: '' });
  });

  it('trims the title, including the carriage return of CRLF text, and keeps the description as is', () => {
    expect(youtubeTitleAndDescription('  Title \r\n  body  ')).toEqual({
      title: 'Title',
      description: '  body  ',
    });
  });
});

describe('YouTube titles', () => {
  it('are required', () => {
    expect(youtube({ content: '' })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_REQUIRED' }),
    ]);
    expect(codes(youtube({ content: '\nDescription only' }))).toEqual(['TEXT_REQUIRED']);
  });

  it('accept 100 characters and reject 101 with the limit', () => {
    expect(youtube({ content: `${'t'.repeat(100)}\nbody` })).toEqual([]);
    expect(youtube({ content: `${'t'.repeat(101)}\nbody` })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 100 }),
    ]);
  });

  it('count characters as code points: 100 emoji fit', () => {
    expect(youtube({ content: '🎬'.repeat(100) })).toEqual([]);
  });

  it('reject < and >', () => {
    expect(youtube({ content: 'Best <3 moments' })).toEqual([
      expect.objectContaining({ field: 'content', code: 'INVALID_CHARACTERS' }),
    ]);
    expect(codes(youtube({ content: 'a -> b' }))).toEqual(['INVALID_CHARACTERS']);
  });
});

describe('YouTube descriptions', () => {
  it('accept 5000 bytes of multi-byte characters and reject 5001', () => {
    // Prepare: "é" is 2 bytes in UTF-8, so 2500 of them are 5000 bytes but only 2500 characters
    const atLimit = 'é'.repeat(2500);

    // Act / Assess
    expect(youtube({ content: `Title\n${atLimit}` })).toEqual([]);
    expect(youtube({ content: `Title\n${atLimit}a` })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 5000 }),
    ]);
  });

  it('count 4-byte characters: 1250 emoji are exactly 5000 bytes', () => {
    expect(youtube({ content: `Title\n${'🎬'.repeat(1250)}` })).toEqual([]);
    expect(codes(youtube({ content: `Title\n${'🎬'.repeat(1250)}é` }))).toEqual(['TEXT_TOO_LONG']);
  });

  it('reject < and > (networks/youtube.md §3)', () => {
    expect(codes(youtube({ content: 'Title\n<b>bold</b>' }))).toEqual(['INVALID_CHARACTERS']);
  });
});

describe('YouTube media', () => {
  it.each(['video', 'short'] as const)('a %s takes exactly one video', (postType) => {
    expect(youtube({ postType })).toEqual([]);
    expect(codes(youtube({ postType, media: [] }))).toEqual(['MEDIA_REQUIRED']);
    expect(codes(youtube({ postType, media: videos(2) }))).toEqual(['TOO_MANY_MEDIA']);
    expect(codes(youtube({ postType, media: images(1) }))).toEqual(['MEDIA_KIND_NOT_ALLOWED']);
  });
});
