import { describe, expect, it } from 'vitest';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { aDraft, codes, images, kindFromType, videos } from './drafts.js';

const check = (overrides: Partial<PostDraft>) =>
  checkPlatformRules(aDraft({ platform: 'bluesky', ...overrides }), kindFromType);
const card = { uri: 'https://example.com/a', title: 'A', description: 'B' };

describe('Bluesky link and first comment rules', () => {
  it('takes a link with its own title, description and thumbnail on a text post (we build the card)', () => {
    expect(
      check({
        link: { url: 'https://example.com', title: 'T', description: 'D', thumbnail: images(1)[0] ?? {} },
      }),
    ).toEqual([]);
  });

  it('refuses a link beside the older linkCard: one card a post', () => {
    expect(
      check({ link: { url: 'https://example.com' }, platformOptions: { bluesky: { linkCard: card } } }),
    ).toEqual([
      expect.objectContaining({
        field: 'platformOptions.bluesky.linkCard',
        code: 'PLATFORM_OPTION_NOT_ALLOWED',
      }),
    ]);
  });

  it('refuses a link on an image post: a post embeds one thing', () => {
    expect(
      codes(check({ postType: 'image', media: images(1), link: { url: 'https://example.com' } })),
    ).toEqual(expect.arrayContaining(['LINK_WITH_MEDIA']));
  });

  it('takes a comment of up to 4 images or one video, and refuses a video beside anything', () => {
    expect(check({ firstComment: { text: 'Pictures', media: images(4) } })).toEqual([]);
    expect(check({ firstComment: { text: 'A clip', media: videos(1) } })).toEqual([]);
    expect(check({ firstComment: { text: 'Both', media: [...videos(1), ...images(1)] } })).toEqual([
      expect.objectContaining({ field: 'firstComment.media', code: 'TOO_MANY_MEDIA', limit: 1 }),
    ]);
  });

  it('holds a comment to 300 characters', () => {
    expect(check({ firstComment: { text: 'a'.repeat(300) } })).toEqual([]);
    expect(codes(check({ firstComment: { text: 'a'.repeat(301) } }))).toEqual(['FIRST_COMMENT_TOO_LONG']);
  });
});
