import * as z from 'zod';
import { readJson } from './api.js';
import { readGoogleError } from './errors.js';
import type { StepState } from './progress.js';
import { callOnce, isPassing, type StepContext } from './step-context.js';

/** Why a video was not added to its playlist, as kept in progress; after-publish.ts words the warning. */
export const PLAYLIST_REASONS = {
  scope:
    'the account was connected without the youtube.force-ssl permission that adding to a playlist needs: reconnect it',
  not_found: "YouTube does not know the playlist, or it is not this channel's",
  full: 'the playlist is full',
  forbidden: 'YouTube does not let this channel add to the playlist',
  quota: "the service's daily YouTube API quota is used up",
  refused: 'YouTube refused the addition',
  unavailable: 'YouTube kept failing to add it',
  interrupted: 'the attempt that was adding it was interrupted, and whether YouTube added it is not known',
  not_tried: 'the publish attempt was interrupted before adding it',
} as const;
export type PlaylistReason = keyof typeof PLAYLIST_REASONS;

const failed = (why: PlaylistReason): StepState => ({ s: 'failed', why });

const ItemList = z.object({
  items: z
    .array(
      z.object({
        snippet: z.object({ resourceId: z.object({ videoId: z.string().optional() }).optional() }),
      }),
    )
    .default([]),
});

/**
 * Whether the playlist holds the video (playlistItems.list?playlistId=&videoId=, 1 unit): `true`,
 * `false`, or undefined when YouTube did not say. A refusal that adding would meet too (no
 * permission, no playlist) is a final state.
 */
export async function playlistHolds(
  context: StepContext,
  playlistId: string,
  videoId: string,
): Promise<boolean | StepState | undefined> {
  const result = await callOnce(() =>
    context.api({
      method: 'GET',
      url: `${context.apiUrl}/playlistItems`,
      accessToken: context.accessToken,
      query: { part: 'snippet', playlistId, videoId, maxResults: '5' },
      signal: context.signal,
    }),
  );
  if (result.kind !== 'answered') return undefined;
  if (!result.response.ok) {
    const facts = await readGoogleError(result.response);
    if (facts.status === 404) return failed('not_found');
    return undefined;
  }
  const parsed = ItemList.safeParse(await readJson(result.response));
  if (!parsed.success) return undefined;
  return parsed.data.items.some((item) => item.snippet.resourceId?.videoId === videoId);
}

/**
 * playlistItems.insert (POST {api}/playlistItems?part=snippet, 50 units; `youtube`,
 * `youtube.force-ssl` or `youtubepartner`, not `youtube.upload`). Not idempotent: a video may be in
 * a playlist twice, so an insert sent without an answer (`unknown`) is looked up on the next try
 * before any other insert.
 */
export async function addToPlaylist(
  context: StepContext,
  videoId: string,
  playlistId: string,
  prior: StepState | undefined,
): Promise<StepState> {
  const tries = prior?.s === 'retry' || prior?.s === 'unknown' ? prior.tries : 0;
  if (prior?.s === 'unknown') {
    const holds = await playlistHolds(context, playlistId, videoId);
    if (holds === true) return { s: 'done' };
    if (holds === undefined) return { s: 'unknown', tries: tries + 1 };
    if (holds !== false) return holds;
  }
  const result = await callOnce(() =>
    context.api({
      method: 'POST',
      url: `${context.apiUrl}/playlistItems`,
      accessToken: context.accessToken,
      query: { part: 'snippet' },
      json: { snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId } } },
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
  if (facts.reason === 'quotaExceeded') return failed('quota');
  if (isPassing(facts)) return { s: 'retry', tries: tries + 1 };
  if (facts.reason === 'insufficientPermissions' || facts.reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') {
    return failed('scope');
  }
  if (facts.status === 404) return failed('not_found');
  if (facts.reason === 'playlistContainsMaximumNumberOfVideos') return failed('full');
  if (facts.status === 403) return failed('forbidden');
  return failed('refused');
}
