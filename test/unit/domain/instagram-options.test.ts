import { describe, expect, it } from 'vitest';
import { PLATFORM_OPTION_NOT_ALLOWED } from '../../../shared/domain/network-options.js';
import {
  PLATFORM_OPTIONS_MISMATCH,
  type PlatformOptions,
  platformOptionsInput,
  platformOptionsViolations,
} from '../../../shared/domain/platform-options.js';
import type { PostDraft, PostType } from '../../../shared/domain/posts.js';
import { instagramOptionMedia } from '../../../shared/networks/instagram/options-schema.js';

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

describe('Instagram trial reels, reel covers and product tags (issue 30)', () => {
  it('accepts a trial reel and a cover image given by id or by image URL', () => {
    for (const coverImage of [
      { id: 'med_cover1' },
      { url: 'https://cdn.example.com/cover.jpg', type: 'image' },
    ]) {
      const input = { instagram: { trialReel: { graduation: 'auto' }, coverImage } };
      expect(platformOptionsInput.parse(input)).toEqual(input);
    }
  });

  it.each([
    [{ instagram: { trialReel: { graduation: 'never' } } }, 'an unknown graduation'],
    [{ instagram: { trialReel: {} } }, 'a trial reel without its graduation'],
    [{ instagram: { coverImage: { url: 'https://cdn.example.com/c.mp4', type: 'video' } } }, 'a video cover'],
    [
      { instagram: { coverImage: { url: 'http://cdn.example.com/c.jpg', type: 'image' } } },
      'a plain-http cover',
    ],
    [{ instagram: { coverImage: { id: 'cover' } } }, 'a cover id that is not a media id'],
  ])('refuses %j (%s)', (input, _why) => {
    expect(platformOptionsInput.safeParse(input).success).toBe(false);
  });

  it('takes trialReel and coverImage on reels only', () => {
    const options = {
      instagram: { trialReel: { graduation: 'manual' as const }, coverImage: { id: 'med_1' } },
    };
    expect(platformOptionsViolations(draft('reel', options))).toEqual([]);
    expect(platformOptionsViolations(draft('image', options)).map((item) => [item.field, item.code])).toEqual(
      [
        ['platformOptions.instagram.trialReel', PLATFORM_OPTION_NOT_ALLOWED],
        ['platformOptions.instagram.coverImage', PLATFORM_OPTION_NOT_ALLOWED],
      ],
    );
  });

  it('refuses a trial reel shared to the feed, and a cover image beside a cover frame', () => {
    const trialShared = { instagram: { trialReel: { graduation: 'manual' as const }, shareToFeed: true } };
    expect(platformOptionsViolations(draft('reel', trialShared))).toEqual([
      expect.objectContaining({
        field: 'platformOptions.instagram.shareToFeed',
        code: PLATFORM_OPTION_NOT_ALLOWED,
      }),
    ]);
    const twoCovers = { instagram: { coverImage: { id: 'med_1' }, thumbOffsetMs: 1000 } };
    expect(platformOptionsViolations(draft('reel', twoCovers))).toEqual([
      expect.objectContaining({
        field: 'platformOptions.instagram.thumbOffsetMs',
        code: PLATFORM_OPTION_NOT_ALLOWED,
      }),
    ]);
  });

  it('refuses productTags on every post type, saying why (Instagram Login has no product tagging)', () => {
    const options = { instagram: { productTags: [{ productId: '1' }] } };
    for (const postType of ['image', 'carousel', 'reel'] as const) {
      const [only, ...rest] = platformOptionsViolations(draft(postType, options));
      expect(rest).toEqual([]);
      expect(only).toMatchObject({
        field: 'platformOptions.instagram.productTags',
        code: PLATFORM_OPTION_NOT_ALLOWED,
      });
      expect(only?.message).toMatch(
        /Instagram Login.*other login.*business Page.*checkout.*instagram_shopping_tag_products/,
      );
    }
  });

  it('declares the cover as option media, so it is checked and resolved like the post’s media', () => {
    expect(instagramOptionMedia({ coverImage: { id: 'med_9' } })).toEqual({ coverImage: { id: 'med_9' } });
    expect(instagramOptionMedia({ trialReel: { graduation: 'auto' } })).toEqual({});
  });
});
