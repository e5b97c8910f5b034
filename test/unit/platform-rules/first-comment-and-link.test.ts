import { describe, expect, it } from 'vitest';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { aDraft, codes, images, kindFromType, videos } from './drafts.js';

/** The generic checks every network's definition drives (first-comment.ts, link.ts). */
const check = (overrides: Partial<PostDraft>) => checkPlatformRules(aDraft(overrides), kindFromType);
const violationsAt = (overrides: Partial<PostDraft>, field: string) =>
  check(overrides).filter((violation) => violation.field.startsWith(field));

describe("a post's first comment, against its network's support", () => {
  it('is refused where the network takes none, naming the networks that do', () => {
    const [refusal] = violationsAt(
      { platform: 'tiktok', postType: 'video', media: videos(1), firstComment: { text: 'hi' } },
      'firstComment',
    );
    expect(refusal?.code).toBe('FIRST_COMMENT_NOT_SUPPORTED');
    expect(refusal?.message).toContain('Bluesky');
  });

  it("is held to the network's length, counted in characters", () => {
    const limit = 1250;
    expect(
      codes(
        violationsAt({ platform: 'linkedin', firstComment: { text: 'é'.repeat(limit) } }, 'firstComment'),
      ),
    ).toEqual([]);
    expect(
      codes(
        violationsAt({ platform: 'linkedin', firstComment: { text: 'é'.repeat(limit + 1) } }, 'firstComment'),
      ),
    ).toEqual(['FIRST_COMMENT_TOO_LONG']);
  });

  it('needs text', () => {
    expect(
      codes(violationsAt({ platform: 'bluesky', firstComment: { text: '   ' } }, 'firstComment')),
    ).toEqual(['TEXT_REQUIRED']);
  });

  it("takes media only where the network's comments do, of their kinds and number", () => {
    expect(
      codes(
        violationsAt(
          { platform: 'instagram', firstComment: { text: 'x', media: images(1) } },
          'firstComment',
        ),
      ),
    ).toEqual(['MEDIA_NOT_ALLOWED']);
    expect(
      codes(
        violationsAt({ platform: 'facebook', firstComment: { text: 'x', media: images(2) } }, 'firstComment'),
      ),
    ).toEqual(['TOO_MANY_MEDIA']);
    expect(
      codes(
        violationsAt({ platform: 'facebook', firstComment: { text: 'x', media: videos(1) } }, 'firstComment'),
      ),
    ).toEqual(['MEDIA_KIND_NOT_ALLOWED']);
    expect(
      codes(
        violationsAt({ platform: 'bluesky', firstComment: { text: 'x', media: images(2) } }, 'firstComment'),
      ),
    ).toEqual([]);
  });
});

describe("a post's link, against its network's card", () => {
  it('is refused where the network shows no cards', () => {
    expect(
      codes(
        violationsAt(
          { platform: 'instagram', postType: 'image', media: images(1), link: { url: 'https://a.example' } },
          'link',
        ),
      ),
    ).toEqual(['LINK_NOT_SUPPORTED']);
  });

  it('refuses a title, description or thumbnail where the network builds the card itself', () => {
    const link = { url: 'https://a.example', title: 'T', description: 'D', thumbnail: images(1)[0] ?? {} };
    expect(codes(violationsAt({ platform: 'threads', link }, 'link'))).toEqual([
      'LINK_OVERRIDE_NOT_SUPPORTED',
      'LINK_OVERRIDE_NOT_SUPPORTED',
      'LINK_OVERRIDE_NOT_SUPPORTED',
    ]);
    expect(codes(violationsAt({ platform: 'linkedin', link }, 'link'))).toEqual([]);
  });

  it('refuses media beside a card where the network shows one or the other', () => {
    expect(
      codes(
        violationsAt(
          { platform: 'linkedin', postType: 'image', media: images(1), link: { url: 'https://a.example' } },
          'link',
        ),
      ),
    ).toEqual(expect.arrayContaining(['LINK_WITH_MEDIA']));
    expect(
      codes(
        violationsAt(
          { platform: 'twitter', postType: 'image', media: images(1), link: { url: 'https://a.example' } },
          'link',
        ),
      ),
    ).toEqual([]);
  });
});
