import { describe, expect, it } from 'vitest';
import { PLATFORM_OPTION_NOT_ALLOWED } from '../../../shared/domain/network-options.js';
import type { PlatformOptions } from '../../../shared/domain/platform-options.js';
import { platformOptionsInput, platformOptionsViolations } from '../../../shared/domain/platform-options.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { PRIVACY_LEVEL_REQUIRED } from '../../../shared/networks/tiktok/options-schema.js';

function draft(postType: 'video' | 'carousel', tiktok: NonNullable<PlatformOptions['tiktok']>): PostDraft {
  return {
    platform: 'tiktok',
    postType,
    content: 'Dance',
    media: [],
    platformOptions: { tiktok } as PlatformOptions,
  };
}

const fields = (post: PostDraft) =>
  platformOptionsViolations(post).map((violation) => [violation.field, violation.code]);

describe('TikTok mode inbox and autoAddMusic', () => {
  it('takes mode direct or inbox and autoAddMusic as a boolean, nothing else', () => {
    expect(platformOptionsInput.parse({ tiktok: { mode: 'inbox' } })).toEqual({ tiktok: { mode: 'inbox' } });
    expect(platformOptionsInput.safeParse({ tiktok: { mode: 'draft' } }).success).toBe(false);
    expect(platformOptionsInput.safeParse({ tiktok: { autoAddMusic: 'yes' } }).success).toBe(false);
  });

  it('needs no privacy level for an inbox draft, video or photos', () => {
    expect(platformOptionsViolations(draft('video', { mode: 'inbox' }))).toEqual([]);
    expect(platformOptionsViolations(draft('carousel', { mode: 'inbox' }))).toEqual([]);
  });

  it('still requires a privacy level in direct mode, said or not', () => {
    expect(fields(draft('video', { mode: 'direct' }))).toEqual([
      ['platformOptions.tiktok.privacyLevel', PRIVACY_LEVEL_REQUIRED],
    ]);
  });

  it.each(['video', 'carousel'] as const)(
    'refuses every post setting on an inbox %s, each named, saying the creator sets it in the app',
    (postType) => {
      const post = draft(postType, {
        mode: 'inbox',
        privacyLevel: 'SELF_ONLY',
        disableDuet: true,
        disableStitch: true,
        disableComment: false,
        brandContentToggle: false,
        brandOrganicToggle: true,
        isAiGenerated: true,
      });

      const violations = platformOptionsViolations(post);

      expect(violations.map((violation) => violation.field)).toEqual([
        'platformOptions.tiktok.privacyLevel',
        'platformOptions.tiktok.disableDuet',
        'platformOptions.tiktok.disableStitch',
        'platformOptions.tiktok.disableComment',
        'platformOptions.tiktok.brandContentToggle',
        'platformOptions.tiktok.brandOrganicToggle',
        'platformOptions.tiktok.isAiGenerated',
      ]);
      for (const violation of violations) {
        expect(violation.code).toBe(PLATFORM_OPTION_NOT_ALLOWED);
        expect(violation.message).toContain('mode inbox');
        expect(violation.message).toContain('TikTok app');
      }
    },
  );

  it('takes autoAddMusic on a direct photo post', () => {
    expect(
      platformOptionsViolations(
        draft('carousel', { privacyLevel: 'PUBLIC_TO_EVERYONE', autoAddMusic: true }),
      ),
    ).toEqual([]);
  });

  it('refuses autoAddMusic on a video (its own sound) and on an inbox draft (the creator picks music)', () => {
    const onVideo = platformOptionsViolations(
      draft('video', { privacyLevel: 'PUBLIC_TO_EVERYONE', autoAddMusic: false }),
    );
    const inInbox = platformOptionsViolations(draft('carousel', { mode: 'inbox', autoAddMusic: true }));

    expect(onVideo).toEqual([
      {
        field: 'platformOptions.tiktok.autoAddMusic',
        code: PLATFORM_OPTION_NOT_ALLOWED,
        message: expect.stringContaining('photo posts only'),
      },
    ]);
    expect(inInbox).toEqual([
      {
        field: 'platformOptions.tiktok.autoAddMusic',
        code: PLATFORM_OPTION_NOT_ALLOWED,
        message: expect.stringContaining('mode inbox'),
      },
    ]);
  });
});
