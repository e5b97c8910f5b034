import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { readJson } from './api.js';
import { YOUTUBE_CAPTION_CONTENT_TYPES, type YouTubeCaptions } from './captions-option.js';
import { readGoogleError } from './errors.js';
import type { StepState } from './progress.js';
import { callOnce, isPassing, type StepContext } from './step-context.js';

/** Why a caption track was not added, as kept in progress; after-publish.ts words the warning. */
export const CAPTIONS_REASONS = {
  scope:
    'the account was connected without the youtube.force-ssl permission that adding captions needs: reconnect it',
  not_found: 'YouTube does not find the video on the channel',
  forbidden: 'YouTube does not let this channel add captions to the video',
  invalid: 'YouTube refused the caption file or its language or name',
  quota: "the service's daily YouTube API quota is used up",
  refused: 'YouTube refused the caption track',
  unavailable: 'YouTube kept failing to add it',
  interrupted: 'the attempt that was adding it was interrupted, and whether YouTube added it is not known',
  not_tried: 'the publish attempt was interrupted before adding it',
} as const;
export type CaptionsReason = keyof typeof CAPTIONS_REASONS;

const failed = (why: CaptionsReason): StepState => ({ s: 'failed', why });

const CaptionList = z.object({
  items: z
    .array(z.object({ snippet: z.object({ language: z.string().optional(), name: z.string().optional() }) }))
    .default([]),
});

/**
 * Whether the video has a track of this language and name (captions.list?part=snippet&videoId=,
 * 50 units): `true`, `false`, or undefined when YouTube did not say. A refusal that inserting would
 * meet too (no permission, no video) is a final state.
 */
export async function captionsHeld(
  context: StepContext,
  videoId: string,
  captions: YouTubeCaptions,
): Promise<boolean | StepState | undefined> {
  const result = await callOnce(() =>
    context.api({
      method: 'GET',
      url: `${context.apiUrl}/captions`,
      accessToken: context.accessToken,
      query: { part: 'snippet', videoId },
      signal: context.signal,
    }),
  );
  if (result.kind !== 'answered') return undefined;
  if (!result.response.ok) {
    const facts = await readGoogleError(result.response);
    if (facts.reason === 'insufficientPermissions' || facts.reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') {
      return failed('scope');
    }
    if (facts.status === 404) return failed('not_found');
    return undefined;
  }
  const parsed = CaptionList.safeParse(await readJson(result.response));
  if (!parsed.success) return undefined;
  return parsed.data.items.some(
    (item) =>
      item.snippet.language?.toLowerCase() === captions.language.toLowerCase() &&
      item.snippet.name === captions.name,
  );
}

/** The multipart/related body of a media upload: the JSON metadata part, then the file. */
function multipartBody(
  metadata: unknown,
  file: string,
  fileType: string,
): { body: Uint8Array; type: string } {
  const boundary = `caption_${randomBytes(12).toString('hex')}`;
  const text = [
    `--${boundary}`,
    'Content-Type: application/json; charset=UTF-8',
    '',
    JSON.stringify(metadata),
    `--${boundary}`,
    `Content-Type: ${fileType}; charset=UTF-8`,
    '',
    file,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return { body: new TextEncoder().encode(text), type: `multipart/related; boundary=${boundary}` };
}

/**
 * captions.insert (POST {upload}/captions?part=snippet&uploadType=multipart, 400 units;
 * `youtube.force-ssl` or `youtubepartner` only). Not idempotent by itself, but YouTube keeps one
 * track per language and name: a second insert is `409 captionExists`, which means it is there. An
 * insert sent without an answer (`unknown`) is still looked up first on the next try (50 units
 * rather than 400 for a refusal).
 */
export async function addCaptions(
  context: StepContext,
  videoId: string,
  captions: YouTubeCaptions,
  prior: StepState | undefined,
): Promise<StepState> {
  const tries = prior?.s === 'retry' || prior?.s === 'unknown' ? prior.tries : 0;
  if (prior?.s === 'unknown') {
    const held = await captionsHeld(context, videoId, captions);
    if (held === true) return { s: 'done' };
    if (held === undefined) return { s: 'unknown', tries: tries + 1 };
    if (held !== false) return held;
  }
  const { body, type } = multipartBody(
    { snippet: { videoId, language: captions.language, name: captions.name, isDraft: false } },
    captions.text,
    YOUTUBE_CAPTION_CONTENT_TYPES[captions.format],
  );
  const result = await callOnce(() =>
    context.api({
      method: 'POST',
      url: `${context.uploadUrl}/captions`,
      accessToken: context.accessToken,
      query: { part: 'snippet', uploadType: 'multipart' },
      headers: { 'Content-Type': type },
      bytes: body,
      signal: context.signal,
    }),
  );
  if (result.kind === 'not_sent') return { s: 'retry', tries: tries + 1 };
  if (result.kind === 'no_answer') return { s: 'unknown', tries: tries + 1 };
  if (result.response.ok) {
    await result.response.body?.cancel();
    return { s: 'done' };
  }
  const facts = await readGoogleError(result.response);
  if (facts.reason === 'captionExists') return { s: 'done' };
  if (facts.reason === 'quotaExceeded') return failed('quota');
  if (isPassing(facts)) return { s: 'retry', tries: tries + 1 };
  if (facts.reason === 'insufficientPermissions' || facts.reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') {
    return failed('scope');
  }
  if (facts.status === 404) return failed('not_found');
  if (facts.status === 403) return failed('forbidden');
  if (facts.status === 400) return failed('invalid');
  return failed('refused');
}
