import { describe, expect, it } from 'vitest';
import { platformOptionsInput, platformOptionsViolations } from '../../../shared/domain/platform-options.js';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { stepWarnings } from '../../../shared/networks/youtube/after-publish.js';
import {
  YOUTUBE_CAPTION_NAME_MAX_CHARS,
  YOUTUBE_CAPTION_TEXT_MAX_CHARS,
} from '../../../shared/networks/youtube/captions-option.js';
import { youtubeDefinition } from '../../../shared/networks/youtube/definition.js';
import { afterPublishPlan } from '../../../shared/networks/youtube/options.js';
import { aPost } from '../delivery/support.js';
import { aDraft, kindFromType, videos } from '../platform-rules/drafts.js';

const VTT = 'WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nHello.\n';
const SRT = '1\r\n00:00:01,000 --> 00:00:03,500\r\nHello.\r\n';
const captions = (overrides: Record<string, unknown> = {}) => ({
  language: 'en',
  name: 'English',
  format: 'vtt',
  text: VTT,
  ...overrides,
});

const parses = (value: Record<string, unknown>) =>
  platformOptionsInput.safeParse({ youtube: { captions: value } }).success;

/** Everything create and validatePost report of a YouTube post with these captions (after its options parsed). */
const check = (value: Record<string, unknown>) => {
  const youtube = platformOptionsInput.parse({ youtube: { captions: value } }).youtube;
  const post: PostDraft = aDraft({
    platform: 'youtube',
    postType: 'video',
    content: 'My video',
    media: videos(1),
    platformOptions: { youtube },
  });
  return [...checkPlatformRules(post, kindFromType), ...platformOptionsViolations(post)];
};

describe('platformOptions.youtube.captions', () => {
  it('takes a WebVTT or SRT track with a BCP-47 language and a name, and reports nothing', () => {
    expect(check(captions())).toEqual([]);
    expect(check(captions({ language: 'pt-BR', name: 'Português', format: 'srt', text: SRT }))).toEqual([]);
    expect(check(captions({ language: 'zh-Hant', text: `\uFEFF${VTT}` }))).toEqual([]);
    expect(check(captions({ text: 'WEBVTT - launch day\n\n00:01.000 --> 00:02.000\nHi\n' }))).toEqual([]);
  });

  it.each(['english', 'e', 'en_US', 'en-', '12', ''])('refuses the language %j', (language) => {
    expect(parses(captions({ language }))).toBe(false);
  });

  it('refuses a name over 150 characters, an empty name, a format other than vtt or srt, a field it does not know', () => {
    expect(parses(captions({ name: 'n'.repeat(YOUTUBE_CAPTION_NAME_MAX_CHARS) }))).toBe(true);
    expect(parses(captions({ name: 'n'.repeat(YOUTUBE_CAPTION_NAME_MAX_CHARS + 1) }))).toBe(false);
    expect(parses(captions({ name: '  ' }))).toBe(false);
    expect(parses(captions({ format: 'sbv' }))).toBe(false);
    expect(parses(captions({ sync: true }))).toBe(false);
    expect(parses({ language: 'en', name: 'English', format: 'vtt' })).toBe(false);
  });

  it('refuses a file over 65,536 characters, and an empty one', () => {
    const long = (size: number) => `WEBVTT\n\n${'a'.repeat(size - 8)}`;
    expect(parses(captions({ text: long(YOUTUBE_CAPTION_TEXT_MAX_CHARS) }))).toBe(true);
    expect(parses(captions({ text: long(YOUTUBE_CAPTION_TEXT_MAX_CHARS + 1) }))).toBe(false);
    expect(parses(captions({ text: '' }))).toBe(false);
  });

  it.each([
    ['vtt', 'a WebVTT file without its WEBVTT line', '00:00:01.000 --> 00:00:03.500\nHello.\n'],
    ['vtt', 'WEBVTT run into other text', 'WEBVTTX\n\n00:01.000 --> 00:02.000\nHi\n'],
    ['vtt', 'an SRT file said to be WebVTT', SRT],
    ['srt', 'a WebVTT file said to be SRT', VTT],
    ['srt', 'an SRT file without its cue number', '00:00:01,000 --> 00:00:03,500\nHello.\n'],
    ['srt', 'an SRT file whose first cue has no time line', '1\nHello.\n'],
    ['srt', 'plain text', 'Hello, this is a transcript.'],
  ])('reports CAPTIONS_FILE_INVALID at captions.text for %s: %s', (format, _what, text) => {
    const [violation, ...others] = check(captions({ format, text }));
    expect(others).toEqual([]);
    expect(violation).toMatchObject({
      field: 'platformOptions.youtube.captions.text',
      code: 'CAPTIONS_FILE_INVALID',
    });
    expect(violation?.message).toMatch(format === 'vtt' ? /WEBVTT/ : /-->/);
  });

  it('plans the track as a step after the upload, and words its refusal as CAPTIONS_NOT_ADDED (a declared warning)', () => {
    const track = { language: 'en', name: 'English', format: 'vtt' as const, text: VTT };
    const post = aPost({
      platform: 'youtube',
      platformOptions: { youtube: { title: 'T', captions: track } },
    });
    const plan = afterPublishPlan(post, undefined);
    expect(plan).toEqual({ captions: track });

    const warnings = stepWarnings(plan, { captions: { s: 'failed', why: 'scope' } });
    expect(warnings.map((warning) => warning.code)).toEqual(['CAPTIONS_NOT_ADDED']);
    expect(warnings[0]?.message).toMatch(/"English".*youtube\.force-ssl/);
    expect(Object.keys(youtubeDefinition.warningExamples ?? {})).toContain('CAPTIONS_NOT_ADDED');
  });
});
