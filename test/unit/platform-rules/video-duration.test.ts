import { describe, expect, it } from 'vitest';
import { checkPlatformRules, VIDEO_DURATION_LIMITS } from '../../../shared/domain/platform-rules/index.js';
import type { MediaRef } from '../../../shared/domain/posts.js';
import { aDraft, kindFromType } from './drafts.js';

/** One video reference whose duration the lookup knows. */
function aVideo(seconds: number | undefined): {
  ref: MediaRef;
  durationOf: (ref: MediaRef) => number | undefined;
} {
  const ref: MediaRef = { url: 'https://cdn.example.com/clip.mp4', type: 'video' };
  return { ref, durationOf: (asked) => (asked === ref ? seconds : undefined) };
}

describe('video durations', () => {
  it('refuses an Instagram story video over 60 s, naming the field and the limit', () => {
    // Prepare
    const video = aVideo(61.5);

    // Act
    const violations = checkPlatformRules(
      aDraft({ platform: 'instagram', postType: 'story', content: '', media: [video.ref] }),
      kindFromType,
      video.durationOf,
    );

    // Assess
    expect(violations).toEqual([
      {
        field: 'media[0]',
        code: 'VIDEO_TOO_LONG',
        message: 'An Instagram story video may last at most 60 s; this one lasts 61.5 s.',
        limit: 60,
      },
    ]);
  });

  it('refuses a LinkedIn video under 3 s', () => {
    const video = aVideo(2);

    const violations = checkPlatformRules(
      aDraft({ platform: 'linkedin', postType: 'video', content: 'Watch', media: [video.ref] }),
      kindFromType,
      video.durationOf,
    );

    expect(violations).toEqual([
      expect.objectContaining({ field: 'media[0]', code: 'VIDEO_TOO_SHORT', limit: 3 }),
    ]);
  });

  it('checks each part of an X thread at its own field', () => {
    const long = aVideo(126 * 60);
    const fine = aVideo(30);
    const durationOf = (ref: MediaRef) => long.durationOf(ref) ?? fine.durationOf(ref);

    const violations = checkPlatformRules(
      aDraft({
        platform: 'twitter',
        postType: 'thread',
        content: [
          { text: 'one', media: [fine.ref] },
          { text: 'two', media: [long.ref] },
        ],
        media: [],
      }),
      kindFromType,
      durationOf,
    );

    expect(violations).toEqual([
      expect.objectContaining({ field: 'content[1].media[0]', code: 'VIDEO_TOO_LONG', limit: 7500 }),
    ]);
  });

  it('holds a YouTube Short to 3 minutes and a YouTube video to 12 hours', () => {
    const fourMinutes = aVideo(240);

    const asShort = checkPlatformRules(
      aDraft({ platform: 'youtube', postType: 'short', content: 'Title', media: [fourMinutes.ref] }),
      kindFromType,
      fourMinutes.durationOf,
    );
    const asVideo = checkPlatformRules(
      aDraft({ platform: 'youtube', postType: 'video', content: 'Title', media: [fourMinutes.ref] }),
      kindFromType,
      fourMinutes.durationOf,
    );

    expect(asShort).toEqual([expect.objectContaining({ code: 'VIDEO_TOO_LONG', limit: 180 })]);
    expect(asVideo).toEqual([]);
  });

  it('accepts a video whose duration is unknown, and one exactly at a limit', () => {
    const unknown = aVideo(undefined);
    const atLimit = aVideo(VIDEO_DURATION_LIMITS.tiktok.video?.maxSeconds ?? 0);

    for (const video of [unknown, atLimit]) {
      expect(
        checkPlatformRules(
          aDraft({ platform: 'tiktok', postType: 'video', content: 'Hi', media: [video.ref] }),
          kindFromType,
          video.durationOf,
        ),
      ).toEqual([]);
    }
  });

  it('does not restate a post type the network does not take', () => {
    const video = aVideo(3600);

    const violations = checkPlatformRules(
      aDraft({ platform: 'instagram', postType: 'video', content: 'Hi', media: [video.ref] }),
      kindFromType,
      video.durationOf,
    );

    expect(violations.map((item) => item.code)).toEqual(['POST_TYPE_NOT_ALLOWED']);
  });
});
