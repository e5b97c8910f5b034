import { describe, expect, it } from 'vitest';
import { PLATFORM_OPTION_NOT_ALLOWED } from '../../../shared/domain/network-options.js';
import {
  PLATFORM_OPTIONS_MISMATCH,
  type PlatformOptions,
  platformOptionsInput,
  platformOptionsViolations,
} from '../../../shared/domain/platform-options.js';
import type { PostDraft, PostType } from '../../../shared/domain/posts.js';

function draft(postType: PostType, options: PlatformOptions | undefined): PostDraft {
  return {
    platform: 'instagram',
    postType,
    content: 'Caption',
    media: [],
    ...(options && { platformOptions: options }),
  };
}

describe('Instagram options', () => {
  it('accepts every documented option', () => {
    const input = {
      instagram: {
        shareToFeed: false,
        thumbOffsetMs: 1500,
        locationId: '123456',
        collaborators: ['ann', 'bob.c'],
      },
    };
    expect(platformOptionsInput.parse(input)).toEqual(input);
  });

  it.each([
    [{ instagram: { caption: 'x' } }, 'an unknown option'],
    [{ instagram: { thumbOffsetMs: -1 } }, 'a negative cover offset'],
    [{ instagram: { thumbOffsetMs: 1.5 } }, 'a fractional cover offset'],
    [{ instagram: { locationId: 'paris' } }, 'a location that is not an id'],
    [{ instagram: { collaborators: ['a', 'b', 'c', 'd'] } }, 'four collaborators'],
    [{ instagram: { collaborators: ['@ann'] } }, 'a collaborator with @'],
    [{ instagram: { collaborators: [] } }, 'no collaborators'],
  ])('refuses %j (%s)', (input, _why) => {
    expect(platformOptionsInput.safeParse(input).success).toBe(false);
  });

  it('takes the reel options on a reel only: 422 PLATFORM_OPTION_NOT_ALLOWED elsewhere', () => {
    const reelOptions = { instagram: { shareToFeed: true, thumbOffsetMs: 0 } };
    expect(platformOptionsViolations(draft('reel', reelOptions))).toEqual([]);
    const onImage = platformOptionsViolations(draft('image', reelOptions));
    expect(onImage.map((item) => [item.field, item.code])).toEqual([
      ['platformOptions.instagram.shareToFeed', PLATFORM_OPTION_NOT_ALLOWED],
      ['platformOptions.instagram.thumbOffsetMs', PLATFORM_OPTION_NOT_ALLOWED],
    ]);
  });

  it('takes location and collaborators on image, carousel and reel posts, not on a story', () => {
    const options = { instagram: { locationId: '1', collaborators: ['ann'] } };
    for (const postType of ['image', 'carousel', 'reel'] as const) {
      expect(platformOptionsViolations(draft(postType, options))).toEqual([]);
    }
    expect(platformOptionsViolations(draft('story', options)).map((item) => item.field)).toEqual([
      'platformOptions.instagram.locationId',
      'platformOptions.instagram.collaborators',
    ]);
  });

  it('instagram options on another network’s post are a mismatch, and are not checked against its type', () => {
    const other: PostDraft = {
      platform: 'linkedin',
      postType: 'text',
      content: 'Hi',
      media: [],
      platformOptions: { instagram: { shareToFeed: true } },
    };
    expect(platformOptionsViolations(other).map((item) => item.code)).toEqual([PLATFORM_OPTIONS_MISMATCH]);
  });
});
