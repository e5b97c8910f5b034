import { describe, expect, it } from 'vitest';
import { platformOptionsInput } from '../../../shared/domain/platform-options.js';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { youtubeOptionsSchema, youtubeTagsLength } from '../../../shared/networks/youtube/options-schema.js';
import { aDraft, codes, kindFromType, videos } from '../platform-rules/drafts.js';

const issues = (options: unknown) => {
  const parsed = platformOptionsInput.safeParse({ youtube: options });
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
};

const youtube = (overrides: Partial<PostDraft>) =>
  checkPlatformRules(
    aDraft({ platform: 'youtube', postType: 'video', content: 'My video', media: videos(1), ...overrides }),
    kindFromType,
  );

describe('platformOptions.youtube', () => {
  it('takes every option the upload has', () => {
    expect(
      youtubeOptionsSchema.parse({
        title: 'Launch',
        description: 'All about it',
        tags: ['a', 'b c'],
        privacyStatus: 'unlisted',
        madeForKids: false,
        categoryId: '22',
        notifySubscribers: false,
      }),
    ).toMatchObject({ title: 'Launch', privacyStatus: 'unlisted' });
  });

  it.each([
    ['a title over 100 characters', { title: 'x'.repeat(101) }, 'youtube.title'],
    ['a title with < or >', { title: 'a <b>' }, 'youtube.title'],
    ['a blank title', { title: '  ' }, 'youtube.title'],
    [
      'a description over 5000 bytes (2 bytes a character here)',
      { description: 'é'.repeat(2501) },
      'youtube.description',
    ],
    [
      'tags over 500 characters as YouTube counts them',
      { tags: ['x'.repeat(250), 'y'.repeat(250)] },
      'youtube.tags',
    ],
    ['a privacy status YouTube does not have', { privacyStatus: 'friends' }, 'youtube.privacyStatus'],
    ['a category that is not an id', { categoryId: 'music' }, 'youtube.categoryId'],
    ['an unknown option', { license: 'creativeCommon' }, 'youtube'],
  ])('refuses %s', (_, options, path) => {
    expect(issues(options)).toEqual([path]);
  });

  it('counts the commas between tags and two more for a tag with a space', () => {
    expect(youtubeTagsLength(['ab', 'c d'])).toBe(2 + 1 + 3 + 2);
    expect(issues({ tags: ['x'.repeat(249), 'y'.repeat(250)] })).toEqual([]);
  });
});

describe('YouTube rules with options', () => {
  it('take the title from the options, and then the whole text is the description', () => {
    expect(youtube({ content: '', platformOptions: { youtube: { title: 'From options' } } })).toEqual([]);
    expect(
      codes(youtube({ content: 'Fine title\n<b>', platformOptions: { youtube: { title: 'T' } } })),
    ).toEqual(['INVALID_CHARACTERS']);
  });

  it('still need a title from one or the other', () => {
    expect(
      codes(youtube({ content: '', platformOptions: { youtube: { privacyStatus: 'public' } } })),
    ).toEqual(['TEXT_REQUIRED']);
  });

  it('check a description given in the options instead of the text after the first line', () => {
    expect(
      youtube({ content: 'Title\n<not sent>', platformOptions: { youtube: { description: 'Clean' } } }),
    ).toEqual([]);
  });
});
