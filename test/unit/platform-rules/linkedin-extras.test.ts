import { describe, expect, it } from 'vitest';
import { platformOptionsViolations } from '../../../shared/domain/platform-options.js';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { linkedInOptionsSchema } from '../../../shared/networks/linkedin/options-schema.js';
import { aDraft, codes, documents, images } from './drafts.js';

const POLL = { question: 'Which format next?', options: ['Guide', 'Checklist'], duration: '3d' as const };

const linkedin = (overrides: Partial<PostDraft>): PostDraft =>
  aDraft({ platform: 'linkedin', content: 'Vote below', ...overrides });
const rules = (draft: PostDraft) => checkPlatformRules(draft, (ref) => ref.type);

describe('LinkedIn poll option', () => {
  it('takes 2 to 4 answers of at most 30 characters, a question of at most 140, and one of four durations', () => {
    expect(linkedInOptionsSchema.safeParse({ poll: POLL }).success).toBe(true);
    const refused = [
      { ...POLL, options: ['Only one'] },
      { ...POLL, options: ['a', 'b', 'c', 'd', 'e'] },
      { ...POLL, options: ['a', 'b'.repeat(31)] },
      { ...POLL, question: 'q'.repeat(141) },
      { ...POLL, duration: '2d' },
      { ...POLL, question: '   ' },
    ];
    for (const poll of refused)
      expect(linkedInOptionsSchema.safeParse({ poll }).success, JSON.stringify(poll)).toBe(false);
    // Counted as people count: 30 emoji are 30 characters.
    expect(
      linkedInOptionsSchema.safeParse({ poll: { ...POLL, options: ['a', '🚀'.repeat(30)] } }).success,
    ).toBe(true);
  });

  it('goes on a text post, whose text it makes optional', () => {
    const draft = linkedin({ content: '', platformOptions: { linkedin: { poll: POLL } } });
    expect(rules(draft)).toEqual([]);
    expect(platformOptionsViolations(draft)).toEqual([]);
    expect(codes(rules(linkedin({ content: '' })))).toEqual(['TEXT_REQUIRED']);
  });

  it('is refused on an image or document post, naming the option', () => {
    for (const [postType, media] of [
      ['image', images(1)],
      ['document', documents(1)],
    ] as const) {
      expect(
        platformOptionsViolations(
          linkedin({ postType, media, platformOptions: { linkedin: { poll: POLL } } }),
        ),
      ).toEqual([
        expect.objectContaining({
          field: 'platformOptions.linkedin.poll',
          code: 'PLATFORM_OPTION_NOT_ALLOWED',
        }),
      ]);
    }
  });

  it('is refused beside a link (each is the post’s one content)', () => {
    const draft = linkedin({
      link: { url: 'https://example.com/post' },
      platformOptions: { linkedin: { poll: POLL } },
    });
    expect(rules(draft)).toContainEqual(
      expect.objectContaining({
        field: 'platformOptions.linkedin.poll',
        code: 'PLATFORM_OPTION_NOT_ALLOWED',
      }),
    );
  });
});

describe('LinkedIn article card (the post’s link)', () => {
  it('takes a title of 400 characters and a description of 4086, and refuses one more of each', () => {
    const at = linkedin({
      link: { url: 'https://example.com', title: 't'.repeat(400), description: 'd'.repeat(4086) },
    });
    expect(rules(at)).toEqual([]);
    const over = linkedin({
      link: { url: 'https://example.com', title: 't'.repeat(401), description: 'd'.repeat(4087) },
    });
    expect(rules(over)).toEqual([
      expect.objectContaining({ field: 'link.title', code: 'TEXT_TOO_LONG', limit: 400 }),
      expect.objectContaining({ field: 'link.description', code: 'TEXT_TOO_LONG', limit: 4086 }),
    ]);
  });
});
