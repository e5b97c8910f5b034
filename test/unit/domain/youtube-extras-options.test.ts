import { describe, expect, it } from 'vitest';
import { platformOptionsInput, platformOptionsViolations } from '../../../shared/domain/platform-options.js';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { youtubeDefinition } from '../../../shared/networks/youtube/definition.js';
import { youtubeOptions } from '../../../shared/networks/youtube/options-schema.js';
import { YOUTUBE_FORCE_SSL_SCOPE } from '../../../shared/networks/youtube/scopes.js';
import { aDraft, codes, images, kindFromType, videos } from '../platform-rules/drafts.js';

const HOUR_MS = 60 * 60 * 1000;
const inAnHour = () => new Date(Date.now() + HOUR_MS).toISOString();

const draft = (youtube: Record<string, unknown>, overrides: Partial<PostDraft> = {}): PostDraft =>
  aDraft({
    platform: 'youtube',
    postType: 'video',
    content: 'My video',
    media: videos(1),
    platformOptions: { youtube },
    ...overrides,
  });
/** Everything create and validatePost report of a YouTube post: the rules and the options' own checks. */
const check = (youtube: Record<string, unknown>, overrides: Partial<PostDraft> = {}) => {
  const post = draft(youtube, overrides);
  return [...checkPlatformRules(post, kindFromType), ...platformOptionsViolations(post)];
};
const fields = (youtube: Record<string, unknown>, overrides: Partial<PostDraft> = {}) =>
  check(youtube, overrides).map((violation) => `${violation.field} ${violation.code}`);

describe('platformOptions.youtube.publishAt', () => {
  it('is taken as an ISO 8601 time with an offset, with privacy private or left out', () => {
    expect(
      platformOptionsInput.safeParse({ youtube: { publishAt: '2030-01-01T10:00:00+02:00' } }).success,
    ).toBe(true);
    expect(platformOptionsInput.safeParse({ youtube: { publishAt: 'tomorrow' } }).success).toBe(false);
    expect(check({ publishAt: inAnHour() })).toEqual([]);
    expect(check({ publishAt: inAnHour(), privacyStatus: 'private' })).toEqual([]);
  });

  it.each(['public', 'unlisted'])(
    'is refused with privacyStatus %s (YouTube would ignore it)',
    (privacyStatus) => {
      expect(fields({ publishAt: inAnHour(), privacyStatus })).toEqual([
        'platformOptions.youtube.publishAt PLATFORM_OPTION_NOT_ALLOWED',
      ]);
    },
  );

  it("is refused in the past, and when not after the post's scheduledAt", () => {
    expect(fields({ publishAt: new Date(Date.now() - 1000).toISOString() })).toEqual([
      'platformOptions.youtube.publishAt PLATFORM_OPTION_NOT_ALLOWED',
    ]);
    const scheduledAt = new Date(Date.now() + 2 * HOUR_MS).toISOString();
    expect(fields({ publishAt: inAnHour() }, { scheduledAt })).toEqual([
      'platformOptions.youtube.publishAt PLATFORM_OPTION_NOT_ALLOWED',
    ]);
    expect(check({ publishAt: new Date(Date.now() + 3 * HOUR_MS).toISOString() }, { scheduledAt })).toEqual(
      [],
    );
  });
});

describe('platformOptions.youtube.thumbnail and playlistId', () => {
  it('takes a pre-uploaded image or an image URL, declared as option media for the worker to resolve', () => {
    const byId = platformOptionsInput.parse({ youtube: { thumbnail: { id: 'med_abc123' } } });
    expect(byId.youtube).toEqual({ thumbnail: { id: 'med_abc123' } });
    expect(
      platformOptionsInput.safeParse({
        youtube: { thumbnail: { url: 'https://cdn.example.com/t.jpg', type: 'image' } },
      }).success,
    ).toBe(true);
    expect(
      platformOptionsInput.safeParse({
        youtube: { thumbnail: { url: 'https://cdn.example.com/t.mp4', type: 'video' } },
      }).success,
    ).toBe(false);
    expect(youtubeOptions.media({ thumbnail: { id: 'med_abc123' } })).toEqual({
      thumbnail: { id: 'med_abc123' },
    });
    expect(youtubeOptions.media({})).toEqual({});
  });

  it('refuses a thumbnail whose media is not an image', () => {
    expect(codes(checkPlatformRules(draft({ thumbnail: { id: 'med_abc123' } }), () => 'video'))).toContain(
      'MEDIA_KIND_NOT_ALLOWED',
    );
    expect(check({ thumbnail: images(1)[0] })).toEqual([]);
  });

  it('takes a playlist id and refuses what cannot be one', () => {
    expect(
      platformOptionsInput.safeParse({ youtube: { playlistId: 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf' } })
        .success,
    ).toBe(true);
    expect(platformOptionsInput.safeParse({ youtube: { playlistId: 'not a playlist' } }).success).toBe(false);
  });
});

describe('a YouTube first comment', () => {
  const firstComment = { text: 'Chapters below' };

  it('is declared text only, 10,000 characters, needing youtube.force-ssl', () => {
    expect(youtubeDefinition.firstComment).toMatchObject({
      maxLength: 10_000,
      mediaKinds: [],
      maxMedia: 0,
      scopes: [YOUTUBE_FORCE_SSL_SCOPE],
    });
  });

  it.each(['public', 'unlisted'])('is taken on a %s video', (privacyStatus) => {
    expect(check({ privacyStatus }, { firstComment })).toEqual([]);
  });

  it('is refused on a private video, the default here, saying how to allow it', () => {
    const [refusal] = check({}, { firstComment });
    expect(refusal).toMatchObject({ field: 'firstComment', code: 'FIRST_COMMENT_NOT_SUPPORTED' });
    expect(refusal?.message).toMatch(/default/);
    expect(fields({ privacyStatus: 'private' }, { firstComment })).toEqual([
      'firstComment FIRST_COMMENT_NOT_SUPPORTED',
    ]);
  });

  it('is refused on a scheduled video (private until publishAt)', () => {
    expect(fields({ publishAt: inAnHour() }, { firstComment })).toEqual([
      'firstComment FIRST_COMMENT_NOT_SUPPORTED',
    ]);
  });
});
