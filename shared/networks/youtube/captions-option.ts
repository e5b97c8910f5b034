import * as z from 'zod';
import type { RuleViolation } from '../../domain/rule-violation.js';

/**
 * `platformOptions.youtube.captions`: one caption track sent with the video (captions.insert,
 * https://developers.google.com/youtube/v3/docs/captions/insert). The file travels inline as text,
 * so a post needs no second media kind; its size is bounded well under what a post may store.
 */

/** The caption resource's `snippet.name`: "a maximum length of 150 characters" (captions resource). */
export const YOUTUBE_CAPTION_NAME_MAX_CHARS = 150;
/** Ours: the file's text kept on the post (YouTube takes files up to 100 MB). */
export const YOUTUBE_CAPTION_TEXT_MAX_CHARS = 65_536;
export const YOUTUBE_CAPTION_FORMATS = ['vtt', 'srt'] as const;
export type YouTubeCaptionFormat = (typeof YOUTUBE_CAPTION_FORMATS)[number];

/** What the media part is sent as: YouTube accepts any type (`*\/*`), these name the format. */
export const YOUTUBE_CAPTION_CONTENT_TYPES: Record<YouTubeCaptionFormat, string> = {
  vtt: 'text/vtt',
  srt: 'application/x-subrip',
};

/**
 * A BCP-47 tag as YouTube's `snippet.language` takes it: a 2–3 letter language, then subtags
 * (region, script), e.g. `en`, `pt-BR`, `zh-Hant`. Not a full BCP-47 parser: a shape check.
 */
const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export const youtubeCaptionsSchema = z
  .strictObject({
    language: z
      .string()
      .regex(BCP47, 'A BCP-47 language tag, e.g. en or pt-BR.')
      .describe("The track's language as a BCP-47 tag, e.g. en or pt-BR (snippet.language)."),
    name: z
      .string()
      .trim()
      .min(1)
      .refine((name) => [...name].length <= YOUTUBE_CAPTION_NAME_MAX_CHARS, {
        message: `At most ${YOUTUBE_CAPTION_NAME_MAX_CHARS} characters.`,
      })
      .describe(
        "The track's name viewers see in the player's captions menu, e.g. English (≤ 150 characters; snippet.name). The channel may have one track per language and name.",
      ),
    format: z
      .enum(YOUTUBE_CAPTION_FORMATS)
      .describe('The file format of text: vtt (WebVTT) or srt (SubRip).'),
    text: z
      .string()
      .min(1)
      .max(YOUTUBE_CAPTION_TEXT_MAX_CHARS)
      .describe(
        "The caption file's whole content (≤ 65,536 characters), timed: a WebVTT file starts with WEBVTT; an SRT file with a cue number and a 00:00:01,000 --> 00:00:02,500 time line.",
      ),
  })
  .describe(
    'A caption track added after the video is processed (captions.insert, 400 of the project’s 10,000 daily units). Needs youtube.force-ssl; when YouTube refuses it the video is published anyway, with a CAPTIONS_NOT_ADDED warning.',
  );
export type YouTubeCaptions = z.output<typeof youtubeCaptionsSchema>;

const BOM = /^\uFEFF/;
/** "WEBVTT", then the end, a space, a tab or a line break (the WebVTT file signature). */
const WEBVTT_SIGNATURE = /^WEBVTT(?:$|[ \t\r\n])/;
const SRT_TIME = '\\d{1,2}:\\d{2}:\\d{2}[,.]\\d{3}';
const SRT_TIME_LINE = new RegExp(`^${SRT_TIME}[ \\t]*-->[ \\t]*${SRT_TIME}`);

/** Whether the text has its format's opening: a WebVTT signature, or an SRT cue number and time line. */
export function captionsTextHasShape(format: YouTubeCaptionFormat, text: string): boolean {
  const body = text.replace(BOM, '');
  if (format === 'vtt') return WEBVTT_SIGNATURE.test(body);
  const [number, times] = body.replace(/^\s+/, '').split(/\r?\n/);
  return /^\d+\s*$/.test(number ?? '') && SRT_TIME_LINE.test((times ?? '').trim());
}

/** A file that does not open as its format says: YouTube would take it and fail it while processing. */
export function captionsViolations(captions: YouTubeCaptions | undefined): RuleViolation[] {
  if (!captions || captionsTextHasShape(captions.format, captions.text)) return [];
  return [
    {
      field: 'platformOptions.youtube.captions.text',
      code: 'CAPTIONS_FILE_INVALID',
      message:
        captions.format === 'vtt'
          ? 'A WebVTT caption file starts with the line WEBVTT.'
          : 'An SRT caption file starts with a cue number, then a time line such as 00:00:01,000 --> 00:00:02,500.',
    },
  ];
}
