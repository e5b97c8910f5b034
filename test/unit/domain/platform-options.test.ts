import { describe, expect, it } from 'vitest';
import {
  hasPlatformOptions,
  PLATFORM_OPTIONS_MISMATCH,
  type PlatformOptions,
  platformOptionsInput,
  platformOptionsSchema,
  platformOptionsViolations,
} from '../../../shared/domain/platform-options.js';
import type { Platform } from '../../../shared/domain/platforms.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import {
  NETWORK_DEFINITIONS,
  PLATFORM_IDS,
  RULES_OF_PLATFORM,
} from '../../../shared/networks/definitions.js';
import { LINKEDIN_VISIBILITIES } from '../../../shared/networks/linkedin/options-schema.js';
import { TWITTER_REPLY_SETTINGS } from '../../../shared/networks/x/options-schema.js';
import {
  createPostBody,
  postResource,
  updatePostBody,
} from '../../../shared/operations/posts/post-schemas.js';

/** The zod issues of a failed parse, as path → code, for assertions that name the field. */
function issuesOf(input: unknown) {
  const result = platformOptionsInput.safeParse(input);
  expect(result.success).toBe(false);
  return (result.error?.issues ?? []).map((issue) => ({ path: issue.path.join('.'), code: issue.code }));
}

const aCreateBody = (platformOptions?: unknown) => ({
  platform: 'linkedin',
  accountId: 'acc_01JD0000000000000000000000',
  status: 'publish',
  postType: 'text',
  content: 'Hello',
  ...(platformOptions !== undefined && { platformOptions }),
});

describe('platformOptions schema', () => {
  it.each(TWITTER_REPLY_SETTINGS)('takes twitter replySettings %s', (replySettings) => {
    expect(platformOptionsInput.parse({ twitter: { replySettings } })).toEqual({
      twitter: { replySettings },
    });
  });

  it.each(LINKEDIN_VISIBILITIES)('takes linkedin visibility %s', (visibility) => {
    expect(platformOptionsInput.parse({ linkedin: { visibility } })).toEqual({ linkedin: { visibility } });
  });

  it.each(['member', 'urn:li:organization:2414183'])('takes linkedin author %s', (author) => {
    expect(platformOptionsInput.parse({ linkedin: { author, visibility: 'CONNECTIONS' } })).toEqual({
      linkedin: { author, visibility: 'CONNECTIONS' },
    });
  });

  it('stores x as twitter, as the platform name is', () => {
    expect(platformOptionsInput.parse({ x: { replySettings: 'verified' } })).toEqual({
      twitter: { replySettings: 'verified' },
    });
  });

  it('refuses twitter and x together, naming x', () => {
    expect(issuesOf({ twitter: {}, x: { replySettings: 'following' } })).toEqual([
      { path: 'x', code: 'custom' },
    ]);
  });

  it.each([
    ['an unknown twitter option', { twitter: { quoteTweetId: '1' } }, 'twitter', 'unrecognized_keys'],
    [
      'an unknown linkedin option',
      { linkedin: { feedDistribution: 'NONE' } },
      'linkedin',
      'unrecognized_keys',
    ],
    ['a network the service does not know', { myspace: { title: 'Hi' } }, '', 'unrecognized_keys'],
    [
      'a reply setting X does not have',
      { twitter: { replySettings: 'everyone' } },
      'twitter.replySettings',
      'invalid_value',
    ],
    [
      'CONTAINER visibility (group posts)',
      { linkedin: { visibility: 'CONTAINER' } },
      'linkedin.visibility',
      'invalid_value',
    ],
    [
      'a lower-case visibility',
      { linkedin: { visibility: 'public' } },
      'linkedin.visibility',
      'invalid_value',
    ],
  ])('refuses %s', (_case, input, path, code) => {
    expect(issuesOf(input)).toEqual([{ path, code }]);
  });

  it.each([
    'urn:li:person:abc123',
    'urn:li:organization:',
    'urn:li:organization:12a',
    ' urn:li:organization:12',
    'urn:li:organization:12\n',
    'Member',
  ])('refuses linkedin author %j', (author) => {
    const issues = issuesOf({ linkedin: { author } });
    expect(issues.map((issue) => issue.path)).toEqual(['linkedin.author']);
  });

  it('is a 400 detail on the create body, as any unknown field is', () => {
    const result = createPostBody.safeParse(aCreateBody({ linkedin: { visibilty: 'PUBLIC' } }));
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.code])).toEqual([
      ['platformOptions.linkedin', 'unrecognized_keys'],
    ]);
  });
});

describe('platformOptions on the create and update bodies', () => {
  it.each([
    ['left out', undefined],
    ['null', null],
    ['empty', {}],
  ])('on create, %s means none: the parsed body has no options', (_case, options) => {
    const parsed = createPostBody.parse(aCreateBody(options));
    expect(parsed.platformOptions).toBeUndefined();
  });

  it('on create, keeps the options given, x renamed', () => {
    const parsed = createPostBody.parse(aCreateBody({ x: { replySettings: 'following' } }));
    expect(parsed.platformOptions).toEqual({ twitter: { replySettings: 'following' } });
  });

  it.each([
    ['null', null],
    ['empty', {}],
  ])('on PATCH, %s removes them (null), and counts as a change', (_case, options) => {
    expect(updatePostBody.parse({ platformOptions: options })).toEqual({ platformOptions: null });
  });

  it('on PATCH, left out changes nothing', () => {
    expect(updatePostBody.parse({ content: 'New' })).not.toHaveProperty('platformOptions');
  });

  it('the post resource answers null when there are none', () => {
    expect(postResource.shape.platformOptions.parse(null)).toBeNull();
  });
});

/** A text post of `platform` carrying `options`. */
function draftOf(platform: Platform, options: PlatformOptions | undefined): PostDraft {
  return {
    platform,
    postType: 'text',
    content: 'Hello',
    media: [],
    ...(options && { platformOptions: options }),
  };
}

describe('platformOptionsViolations', () => {
  it('has nothing to say about no options, or options for the post’s own network', () => {
    expect(platformOptionsViolations(draftOf('twitter', undefined))).toEqual([]);
    expect(
      platformOptionsViolations(draftOf('twitter', { twitter: { replySettings: 'following' } })),
    ).toEqual([]);
    expect(platformOptionsViolations(draftOf('linkedin', { linkedin: { author: 'member' } }))).toEqual([]);
  });

  it('names another network’s options as a mismatch and points at the post’s own key', () => {
    const violations = platformOptionsViolations(
      draftOf('linkedin', {
        twitter: {},
        linkedin: { visibility: 'PUBLIC' },
      }),
    );
    expect(violations).toEqual([
      { field: 'platformOptions.twitter', code: PLATFORM_OPTIONS_MISMATCH, message: expect.any(String) },
    ]);
    expect(violations[0]?.message).toContain('platformOptions.linkedin');
  });

  it('reports options for another network even when they are empty', () => {
    expect(platformOptionsViolations(draftOf('twitter', { linkedin: {} })).map((v) => v.field)).toEqual([
      'platformOptions.linkedin',
    ]);
  });
});

describe('hasPlatformOptions', () => {
  it('is false for none and empty, true for any network named', () => {
    expect([undefined, null, {}].map(hasPlatformOptions)).toEqual([false, false, false]);
    expect(hasPlatformOptions({ twitter: {} })).toBe(true);
  });
});

describe('platformOptions from the network definitions', () => {
  it('has one property per network, in the definitions’ order, holding the schema its folder declares', () => {
    expect(Object.keys(platformOptionsSchema.shape)).toEqual([...PLATFORM_IDS]);
    for (const { platform, platformOptions } of NETWORK_DEFINITIONS) {
      const property = platformOptionsSchema.shape[platform];
      expect(property.unwrap()).toBe(platformOptions.schema);
      expect(property.description).toBe(platformOptions.description);
    }
  });

  it('takes every alias as its platform’s options, stored under the platform, and refuses both names', () => {
    const aliases = NETWORK_DEFINITIONS.flatMap(({ platform, aliases }) =>
      aliases.map((alias) => ({ alias, platform })),
    );
    expect(aliases.length).toBeGreaterThan(0);
    for (const { alias, platform } of aliases) {
      expect(platformOptionsInput.parse({ [alias]: {} })).toEqual({ [platform]: {} });
      expect(issuesOf({ [platform]: {}, [alias]: {} })).toEqual([{ path: alias, code: 'custom' }]);
    }
  });
});

describe('userTags on the create body', () => {
  const tagged = (platform: string) => ({
    ...aCreateBody(),
    platform,
    postType: 'image',
    media: [
      { url: 'https://example.com/a.jpg', type: 'image', userTags: [{ username: 'a', x: 0.5, y: 0.5 }] },
    ],
  });

  it('takes them on the networks whose rules take them, and refuses them (400) on every other', () => {
    const takers = PLATFORM_IDS.filter((platform) => RULES_OF_PLATFORM[platform].takesUserTags);
    expect(takers.length).toBeGreaterThan(0);
    expect(takers.length).toBeLessThan(PLATFORM_IDS.length);
    for (const platform of PLATFORM_IDS) {
      const result = createPostBody.safeParse(tagged(platform));
      const refusals = (result.error?.issues ?? []).map((issue) => issue.path.join('.'));
      expect(refusals).toEqual(takers.includes(platform) ? [] : ['media.0.userTags']);
    }
  });
});
