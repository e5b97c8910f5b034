import type { Platform } from './platforms.js';
import type { PolicyFacet, PolicyViolation, PostingWindow, WorkspacePolicies } from './policies.js';
import type { MediaKindLookup, MediaRef, PostDraft } from './posts.js';

/**
 * The order in which the facets are checked. One violation answers one 403, so the caller sees the
 * broadest problem first: a post for the wrong network is wrong whatever it says; its words matter
 * whenever it goes out; its time can be changed without touching the text; alt text is the last
 * detail to fix.
 */
export const POLICY_FACET_ORDER: readonly PolicyFacet[] = ['platform', 'content', 'schedule', 'media'];

export interface PolicyContext {
  /** Epoch milliseconds: the publish moment of a post without `scheduledAt` ("publish now"). */
  now: number;
  mediaKind: MediaKindLookup;
}

/**
 * The first workspace policy the draft breaks, in {@link POLICY_FACET_ORDER}, or undefined when it
 * breaks none (or the workspace has no policies). Pure: the clock and the media lookup come in `ctx`.
 *
 * The caller decides what to check. The schedule facet looks at `scheduledAt` when present and at
 * `ctx.now` otherwise, so a draft that is only being saved (it is published by a later call, at a
 * time not known yet) should not be passed here, or should be checked again when it is published.
 * `requireApproval` is not a violation: it routes the post to pending_approval, which is the
 * caller's business.
 *
 * `scheduledAt` is expected to have passed request validation; one that does not parse fails the
 * schedule facet rather than slipping past it.
 */
export function checkPolicies(
  draft: PostDraft,
  policies: WorkspacePolicies | undefined,
  ctx: PolicyContext,
): PolicyViolation | undefined {
  if (!policies) return undefined;
  const checks: Record<PolicyFacet, () => string | undefined> = {
    platform: () => checkPlatform(draft.platform, policies.allowedPlatforms),
    content: () => checkContent(draft, policies.blockedTerms),
    schedule: () => checkSchedule(draft.scheduledAt, ctx.now, policies),
    media: () => (policies.requireAltText ? checkAltText(draft, ctx.mediaKind) : undefined),
  };
  for (const facet of POLICY_FACET_ORDER) {
    const reason = checks[facet]();
    if (reason !== undefined) return { facet, reason };
  }
  return undefined;
}

// --- platform ---------------------------------------------------------------------------------------

function checkPlatform(platform: Platform, allowed: readonly Platform[] | undefined): string | undefined {
  if (allowed === undefined || allowed.includes(platform)) return undefined;
  return `This workspace publishes only to ${allowed.join(', ')}.`;
}

// --- content ----------------------------------------------------------------------------------------

/** Regular-expression syntax characters: with the `u` flag only these (and `/`) may be escaped. */
const SYNTAX_CHARACTERS = /[\\^$.*+?()[\]{}|/]/g;

/**
 * A pattern matching `term` as a whole word or phrase: not preceded or followed by a letter, a
 * combining mark or a digit in any script ("class" is not in "classic", "кот" is not in "котёл").
 * Spaces inside a phrase match any run of white space, so "buy now" also finds "Buy\n now".
 * Languages written without spaces (Chinese, Japanese, Thai) have no such boundary: a term there
 * matches only where it stands next to punctuation, white space or the edge of the text.
 */
export function blockedTermPattern(term: string): RegExp {
  const body = term
    .normalize('NFC')
    .trim()
    .split(/\s+/u)
    .map((word) => word.replace(SYNTAX_CHARACTERS, '\\$&'))
    .join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${body}(?![\\p{L}\\p{M}\\p{N}])`, 'iu');
}

/** Every published text of the post with where it is: the item texts and the images' alt texts. */
function textsOf(draft: PostDraft): { where: string; text: string }[] {
  const texts: { where: string; text: string }[] = [];
  const addAlts = (media: readonly MediaRef[] | undefined, prefix: string) => {
    media?.forEach((ref, index) => {
      if (ref.alt) texts.push({ where: `${prefix}[${index}].alt`, text: ref.alt });
    });
  };
  if (typeof draft.content === 'string') {
    texts.push({ where: 'The post text', text: draft.content });
  } else {
    draft.content.forEach((item, index) => {
      if (item.text) texts.push({ where: `content[${index}].text`, text: item.text });
      addAlts(item.media, `content[${index}].media`);
    });
  }
  addAlts(draft.media, 'media');
  return texts;
}

function checkContent(draft: PostDraft, blockedTerms: readonly string[] | undefined): string | undefined {
  const terms = (blockedTerms ?? []).filter((term) => term.trim() !== '');
  if (terms.length === 0) return undefined;
  const texts = textsOf(draft).map(({ where, text }) => ({ where, text: text.normalize('NFC') }));
  for (const term of terms) {
    const pattern = blockedTermPattern(term);
    const hit = texts.find(({ text }) => pattern.test(text));
    if (hit) return `${hit.where} contains the blocked term "${term}".`;
  }
  return undefined;
}

// --- schedule ---------------------------------------------------------------------------------------

export const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** "HH:MM" → minutes after midnight; NaN when malformed. */
export function minuteOfDay(time: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) return Number.NaN;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : Number.NaN;
}

/**
 * Whether the moment falls inside the window. Minutes count, seconds do not: with end 17:00,
 * 16:59:59 is inside and 17:00:00 is not. When end is before start the window spans midnight and
 * the day that counts against `days` is the day it started: a Friday 22:00–02:00 window allows
 * Saturday 01:00. A window whose start equals its end (the schema refuses one) allows nothing.
 */
export function isInsideWindow(window: PostingWindow, moment: number): boolean {
  const start = minuteOfDay(window.start);
  const end = minuteOfDay(window.end);
  if (Number.isNaN(start) || Number.isNaN(end) || start === end) return false;
  const date = new Date(moment);
  const minute = date.getUTCHours() * 60 + date.getUTCMinutes();
  let day = date.getUTCDay();
  let inside: boolean;
  if (start < end) {
    inside = minute >= start && minute < end;
  } else if (minute >= start) {
    inside = true; // The evening part of a window across midnight: it started today.
  } else {
    inside = minute < end; // The morning part: it started yesterday.
    day = (day + 6) % 7;
  }
  if (!inside) return false;
  return window.days === undefined || window.days.includes(day);
}

export function describeWindow(window: PostingWindow): string {
  const across = minuteOfDay(window.end) < minuteOfDay(window.start) ? ' (across midnight)' : '';
  const days =
    window.days === undefined
      ? 'every day'
      : `on ${[...window.days]
          .sort((a, b) => a - b)
          .map((day) => DAY_NAMES[day] ?? String(day))
          .join(', ')}`;
  return `${window.start}–${window.end} UTC${across}, ${days}`;
}

function checkSchedule(
  scheduledAt: string | undefined,
  now: number,
  { postingWindow, blackoutDates }: WorkspacePolicies,
): string | undefined {
  if (postingWindow === undefined && (blackoutDates ?? []).length === 0) return undefined;
  const moment = scheduledAt === undefined ? now : Date.parse(scheduledAt);
  if (Number.isNaN(moment)) return `The scheduled time "${scheduledAt}" is not a valid date.`;
  const iso = new Date(moment).toISOString();
  const when = scheduledAt === undefined ? `Now (${iso})` : `The scheduled time ${iso}`;
  const date = iso.slice(0, 10);
  if (blackoutDates?.includes(date)) return `Nothing may be published on ${date} (UTC), a blackout date.`;
  if (postingWindow && !isInsideWindow(postingWindow, moment)) {
    return `${when} is outside the posting window, ${describeWindow(postingWindow)}.`;
  }
  return undefined;
}

// --- media ------------------------------------------------------------------------------------------

/** Every media reference with its field path: the top-level media, then each item's. */
function mediaOf(draft: PostDraft): { where: string; ref: MediaRef }[] {
  const refs = draft.media.map((ref, index) => ({ where: `media[${index}]`, ref }));
  if (typeof draft.content !== 'string') {
    draft.content.forEach((item, i) => {
      item.media?.forEach((ref, j) => {
        refs.push({ where: `content[${i}].media[${j}]`, ref });
      });
    });
  }
  return refs;
}

/** Images only: a video or document needs no alt text, and neither does media of unknown kind. */
function checkAltText(draft: PostDraft, mediaKind: MediaKindLookup): string | undefined {
  const missing = mediaOf(draft).find(
    ({ ref }) => mediaKind(ref) === 'image' && (ref.alt === undefined || ref.alt.trim() === ''),
  );
  return missing && `Every image needs alt text; ${missing.where} has none.`;
}
