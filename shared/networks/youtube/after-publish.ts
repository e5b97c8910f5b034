import type { PostWarning } from '../../domain/posts.js';
import type { DeliveryMedia } from '../../ports/connector.js';
import type { YouTubeCaptions } from './captions-option.js';
import { addCaptions, CAPTIONS_REASONS, type CaptionsReason, captionsHeld } from './captions-step.js';
import { addToPlaylist, PLAYLIST_REASONS, type PlaylistReason, playlistHolds } from './playlist-step.js';
import type { AfterSteps, StepState } from './progress.js';
import type { StepContext } from './step-context.js';
import { setThumbnail, THUMBNAIL_REASONS, type ThumbnailReason } from './thumbnail-step.js';

/**
 * The steps after YouTube has processed the video (docs/networks.md "Video network (YouTube)",
 * "After the upload"): its custom thumbnail, then its playlist, then its caption track. Each has
 * its own outcome, kept in progress so nothing is done twice; a step that fails never fails the
 * post, which is published with a warning (THUMBNAIL_NOT_SET, PLAYLIST_NOT_ADDED,
 * CAPTIONS_NOT_ADDED) instead.
 */
export interface AfterPublishPlan {
  /** The post asks for a custom thumbnail; `media` is it, resolved by the worker (absent: not readable). */
  thumbnail?: { media?: DeliveryMedia };
  playlistId?: string;
  captions?: YouTubeCaptions;
}

/** A step YouTube failed for now is tried again on the next attempts, this many times in all. */
export const YOUTUBE_STEP_MAX_TRIES = 3;

export function isSettled(state: StepState | undefined): boolean {
  return state?.s === 'done' || state?.s === 'failed';
}

/** Whether a step of the plan is still to do (not done, not given up). */
export function stepsLeft(plan: AfterPublishPlan, steps: AfterSteps): boolean {
  return (
    (plan.thumbnail !== undefined && !isSettled(steps.thumbnail)) ||
    (plan.playlistId !== undefined && !isSettled(steps.playlist)) ||
    (plan.captions !== undefined && !isSettled(steps.captions))
  );
}

function capped(state: StepState, exhausted: ThumbnailReason & PlaylistReason & CaptionsReason): StepState {
  if ((state.s === 'retry' || state.s === 'unknown') && state.tries >= YOUTUBE_STEP_MAX_TRIES) {
    return { s: 'failed', why: state.s === 'unknown' ? 'interrupted' : exhausted };
  }
  return state;
}

/** One attempt at each step still to do; what each ended in. */
export async function runSteps(
  context: StepContext,
  videoId: string,
  plan: AfterPublishPlan,
  steps: AfterSteps,
): Promise<AfterSteps> {
  const out: AfterSteps = { ...steps };
  if (plan.thumbnail && !isSettled(out.thumbnail)) {
    const tries = out.thumbnail?.s === 'retry' ? out.thumbnail.tries : 0;
    out.thumbnail = capped(await setThumbnail(context, videoId, plan.thumbnail.media, tries), 'unavailable');
    if (context.signal.aborted) return out;
  }
  if (plan.playlistId && !isSettled(out.playlist)) {
    out.playlist = capped(
      await addToPlaylist(context, videoId, plan.playlistId, out.playlist),
      'unavailable',
    );
    if (context.signal.aborted) return out;
  }
  if (plan.captions && !isSettled(out.captions)) {
    out.captions = capped(await addCaptions(context, videoId, plan.captions, out.captions), 'unavailable');
  }
  return out;
}

/**
 * After an attempt that ended without an answer (the worker stopped waiting), the steps it left
 * unsettled are not tried again: a thumbnail is given up as interrupted; a playlist or captions
 * insert that may have been sent is looked up (added, or not), one never sent is given up.
 */
export async function settleInterrupted(
  context: StepContext | undefined,
  videoId: string,
  plan: AfterPublishPlan,
  steps: AfterSteps,
): Promise<AfterSteps> {
  const out: AfterSteps = { ...steps };
  if (plan.thumbnail && !isSettled(out.thumbnail)) out.thumbnail = { s: 'failed', why: 'interrupted' };
  if (plan.playlistId && !isSettled(out.playlist)) {
    if (out.playlist?.s === 'unknown') {
      const holds = context
        ? await playlistHolds(context, plan.playlistId, videoId).catch(() => undefined)
        : undefined;
      out.playlist = holds === true ? { s: 'done' } : { s: 'failed', why: 'interrupted' };
    } else {
      out.playlist = { s: 'failed', why: 'not_tried' };
    }
  }
  if (plan.captions && !isSettled(out.captions)) {
    if (out.captions?.s === 'unknown') {
      const captions = plan.captions;
      const held = context
        ? await captionsHeld(context, videoId, captions).catch(() => undefined)
        : undefined;
      out.captions = held === true ? { s: 'done' } : { s: 'failed', why: 'interrupted' };
    } else {
      out.captions = { s: 'failed', why: 'not_tried' };
    }
  }
  return out;
}

function reasonOf<R extends Record<string, string>>(reasons: R, why: string): string {
  return (reasons as Record<string, string>)[why] ?? 'YouTube refused it';
}

/** The warnings of the steps that were given up, in our words. */
export function stepWarnings(plan: AfterPublishPlan, steps: AfterSteps): PostWarning[] {
  const out: PostWarning[] = [];
  if (steps.thumbnail?.s === 'failed') {
    out.push({
      code: 'THUMBNAIL_NOT_SET',
      message: `The video is published without its custom thumbnail: ${reasonOf(THUMBNAIL_REASONS, steps.thumbnail.why)}.`,
    });
  }
  if (steps.playlist?.s === 'failed') {
    out.push({
      code: 'PLAYLIST_NOT_ADDED',
      message: `The video is published but not added to playlist ${plan.playlistId ?? ''}: ${reasonOf(PLAYLIST_REASONS, steps.playlist.why)}.`,
    });
  }
  if (steps.captions?.s === 'failed') {
    out.push({
      code: 'CAPTIONS_NOT_ADDED',
      message: `The video is published without its caption track${plan.captions ? ` "${plan.captions.name}"` : ''}: ${reasonOf(CAPTIONS_REASONS, steps.captions.why)}.`,
    });
  }
  return out;
}
