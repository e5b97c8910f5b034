import { describe, expect, it } from 'vitest';
import type { PlatformOptions } from '../../../shared/domain/platform-options.js';
import { platformOptionsInput, platformOptionsViolations } from '../../../shared/domain/platform-options.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { PRIVACY_LEVEL_REQUIRED } from '../../../shared/networks/tiktok/options-schema.js';

function tiktokDraft(options: PlatformOptions | undefined): PostDraft {
  return {
    platform: 'tiktok',
    postType: 'video',
    content: 'Dance',
    media: [],
    ...(options && { platformOptions: options }),
  };
}

describe('TikTok options', () => {
  it('accepts every documented option and refuses an unknown one', () => {
    const all = {
      tiktok: {
        privacyLevel: 'SELF_ONLY',
        disableDuet: true,
        disableStitch: false,
        disableComment: true,
        brandContentToggle: false,
        brandOrganicToggle: true,
        isAiGenerated: true,
      },
    };
    expect(platformOptionsInput.parse(all)).toEqual(all);
    expect(platformOptionsInput.safeParse({ tiktok: { privacyLevel: 'FRIENDS' } }).success).toBe(false);
    expect(platformOptionsInput.safeParse({ tiktok: { allowDuet: true } }).success).toBe(false);
  });

  it('requires a privacy level on a TikTok post: none is chosen for the creator', () => {
    for (const options of [undefined, { tiktok: {} }, { tiktok: { disableComment: true } }]) {
      expect(platformOptionsViolations(tiktokDraft(options))).toEqual([
        {
          field: 'platformOptions.tiktok.privacyLevel',
          code: PRIVACY_LEVEL_REQUIRED,
          message: expect.stringContaining('privacyLevel'),
        },
      ]);
    }
    expect(
      platformOptionsViolations(tiktokDraft({ tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' } })),
    ).toEqual([]);
  });

  it('reports both the mismatch and the missing level when only another network’s options are sent', () => {
    expect(
      platformOptionsViolations(tiktokDraft({ twitter: {} })).map((violation) => violation.code),
    ).toEqual(['PLATFORM_OPTIONS_MISMATCH', PRIVACY_LEVEL_REQUIRED]);
  });
});
