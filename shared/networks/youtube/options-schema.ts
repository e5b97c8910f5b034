import * as z from 'zod';
import {
  type NetworkOptions,
  type OptionsSubject,
  PLATFORM_OPTION_NOT_ALLOWED,
} from '../../domain/network-options.js';
import { optionImageSchema } from '../../domain/option-image.js';
import type { MediaRef } from '../../domain/post-shape.js';
import type { RuleViolation } from '../../domain/rule-violation.js';
import { captionsViolations, youtubeCaptionsSchema } from './captions-option.js';
import { YOUTUBE_FORCE_SSL_SCOPE } from './scopes.js';

/**
 * `platformOptions.youtube` (networks/youtube.md §3): the upload's metadata that a post's text
 * cannot carry. The title and description default to the text (its first line, and the rest), so
 * a post needs a title from one or the other: the rules (rules.ts) check the
 * values the connector will send, whichever they come from, and answer 422 without one.
 */

/** `snippet.title`: ≤ 100 characters, no `<` or `>`. */
export const YOUTUBE_TITLE_MAX_CHARS = 100;
/** `snippet.description`: ≤ 5000 bytes in UTF-8, no `<` or `>`. */
export const YOUTUBE_DESCRIPTION_MAX_BYTES = 5000;
/** `snippet.tags[]`: the whole list ≤ 500 characters as YouTube counts it ({@link youtubeTagsLength}). */
export const YOUTUBE_TAGS_MAX_CHARS = 500;

export const YOUTUBE_PRIVACY_STATUSES = ['private', 'public', 'unlisted'] as const;
export type YouTubePrivacyStatus = (typeof YOUTUBE_PRIVACY_STATUSES)[number];
/**
 * Sent when the caller leaves it out: YouTube's own default has changed over time and differs by
 * account (youtube.md §3), so the connector always sends one, and the safe one.
 */
export const YOUTUBE_DEFAULT_PRIVACY: YouTubePrivacyStatus = 'private';

const ANGLE_BRACKETS = /[<>]/;

/** YouTube counts the commas between tags, and a tag with a space as if quoted (two more). */
export function youtubeTagsLength(tags: readonly string[]): number {
  const characters = tags.reduce((sum, tag) => sum + [...tag].length + (/\s/.test(tag) ? 2 : 0), 0);
  return characters + Math.max(0, tags.length - 1);
}

/**
 * thumbnails.set takes "image/jpeg, image/png" of at most 2 MB (the v3 reference; newer REST pages
 * say 50 MB: the smaller, long-standing figure is the one kept).
 */
export const YOUTUBE_THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
export const YOUTUBE_THUMBNAIL_TYPES = ['image/jpeg', 'image/png'] as const;

/** A custom thumbnail: a pre-uploaded image (`id`) or an image URL fetched and stored at publish time. */
const thumbnailSchema = optionImageSchema('a JPEG or PNG of at most 2 MB');

export const youtubeOptionsSchema = z
  .strictObject({
    title: z
      .string()
      .trim()
      .min(1)
      .refine((title) => [...title].length <= YOUTUBE_TITLE_MAX_CHARS, {
        message: `At most ${YOUTUBE_TITLE_MAX_CHARS} characters.`,
      })
      .refine((title) => !ANGLE_BRACKETS.test(title), { message: 'May not contain < or >.' })
      .optional()
      .describe(
        'The video title (≤ 100 characters, no < or >). Left out, the first line of the text is the title; one of the two is required.',
      ),
    description: z
      .string()
      .refine((text) => Buffer.byteLength(text, 'utf8') <= YOUTUBE_DESCRIPTION_MAX_BYTES, {
        message: `At most ${YOUTUBE_DESCRIPTION_MAX_BYTES} bytes in UTF-8.`,
      })
      .refine((text) => !ANGLE_BRACKETS.test(text), { message: 'May not contain < or >.' })
      .optional()
      .describe(
        'The video description (≤ 5000 bytes in UTF-8, no < or >). Left out, it is the text after the title: after the first line, or the whole text when title is given here.',
      ),
    tags: z
      .array(z.string().trim().min(1).max(YOUTUBE_TAGS_MAX_CHARS))
      .refine((tags) => youtubeTagsLength(tags) <= YOUTUBE_TAGS_MAX_CHARS, {
        message: `The tags together may be at most ${YOUTUBE_TAGS_MAX_CHARS} characters (commas between them counted, a tag with a space counts two more).`,
      })
      .optional()
      .describe('Keywords (together ≤ 500 characters as YouTube counts them).'),
    privacyStatus: z
      .enum(YOUTUBE_PRIVACY_STATUSES)
      .optional()
      .describe('private (the default here), public or unlisted.'),
    madeForKids: z
      .boolean()
      .optional()
      .describe('status.selfDeclaredMadeForKids (COPPA): false when left out.'),
    categoryId: z
      .string()
      .regex(/^[0-9]{1,4}$/, 'A YouTube video category id, e.g. 22 (People & Blogs).')
      .optional()
      .describe('The video category id, e.g. 22 (People & Blogs); YouTube picks one when left out.'),
    notifySubscribers: z
      .boolean()
      .optional()
      .describe("Whether the channel's subscribers are notified of the upload (YouTube's default: true)."),
    publishAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(
        "YouTube's own scheduled publishing (status.publishAt): the video is uploaded now, stays private, and YouTube makes it public at this time (ISO 8601, in the future, after scheduledAt when the post has one). Only with privacyStatus private or left out.",
      ),
    thumbnail: thumbnailSchema
      .optional()
      .describe(
        'A custom thumbnail (JPEG or PNG, at most 2 MB), set after the upload (thumbnails.set). The channel must be allowed custom thumbnails (a phone-verified channel); when YouTube refuses it the video is published anyway, with a THUMBNAIL_NOT_SET warning.',
      ),
    playlistId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{2,64}$/, 'Expected a YouTube playlist id, e.g. PL…')
      .optional()
      .describe(
        'A playlist of the channel to add the video to once it is published (playlistItems.insert). Needs the youtube.force-ssl permission: an account connected without it (before it was asked, or where the operator does not ask comment permissions) gets the video published with a PLAYLIST_NOT_ADDED warning and should be reconnected.',
      ),
    captions: youtubeCaptionsSchema.optional(),
  })
  .meta({ id: 'YouTubeOptions' });
export type YouTubeOptions = z.output<typeof youtubeOptionsSchema>;

/** The options' checks that need no other part of the post: publishAt's privacy, the captions file's shape. */
export function youtubeOptionsViolations({ options }: OptionsSubject<YouTubeOptions>): RuleViolation[] {
  return [...publishAtPrivacyViolations(options), ...captionsViolations(options?.captions)];
}

/**
 * "publishAt … can be set only if the privacy status of the video is private" (videos reference):
 * with another privacy YouTube ignores it without an error, so a public or unlisted video with a
 * publishAt is refused here rather than published at once.
 */
function publishAtPrivacyViolations(options: YouTubeOptions | undefined): RuleViolation[] {
  if (!options?.publishAt || options.privacyStatus === undefined || options.privacyStatus === 'private') {
    return [];
  }
  return [
    {
      field: 'platformOptions.youtube.publishAt',
      code: PLATFORM_OPTION_NOT_ALLOWED,
      message: `YouTube schedules only a private video (it makes it public at publishAt); this one is ${options.privacyStatus}. Leave privacyStatus out or set it to private.`,
    },
  ];
}

/** `platformOptions.youtube`, as the definition declares them. */
export const youtubeOptions = {
  schema: youtubeOptionsSchema,
  description:
    "YouTube: the video's title, description, tags, privacy, category, audience, scheduled publishing, custom thumbnail, playlist and a caption track.",
  inputNote: "a title here or the text's first line",
  violations: youtubeOptionsViolations,
  media: (options): Readonly<Record<string, MediaRef>> =>
    options.thumbnail ? { thumbnail: options.thumbnail } : {},
  // playlistItems.insert and captions.insert take no youtube.upload token.
  scopes: (options) => (options.playlistId || options.captions ? [YOUTUBE_FORCE_SSL_SCOPE] : []),
} satisfies NetworkOptions<typeof youtubeOptionsSchema>;
