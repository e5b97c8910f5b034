import type { Temporal } from 'temporal-polyfill';
import type { Post } from '../types.js';
import { messageOf } from './calendar-entry.js';
import { Problems } from './calendar-error.js';
import { displayLocal, localMinute, parseAt, toServiceTime } from './local-time.js';
import type { CalendarEntry, CalendarFile, DesiredPost, Recurrence, SlotRule, TimeSource } from './model.js';
import { occurrencesBetween } from './recurrence.js';
import { slotInstants } from './slots.js';

export interface ExpandContext {
  now: Date;
  /** The post the plan matches to each externalId of the calendar (none cancelled or failed). */
  existing: Map<string, Post>;
  /** Scheduled posts the calendar does not manage (UTC): their times are not free slots. */
  busy: { accountId: string; scheduledAt: string }[];
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * The posts the calendar wants, entry by entry in file order (a recurring entry's occurrences in
 * time order). Times are settled in two rounds: first everything whose time is known (fixed `at`,
 * recurrences, and times already placed that a re-run must not move), then entries waiting for a
 * slot, in file order, each taking its account's first slot that nothing else holds.
 * @throws CalendarFileError listing every entry that cannot be placed.
 */
export function expandCalendar(file: CalendarFile, context: ExpandContext): DesiredPost[] {
  const problems = new Problems();
  const until = new Date(context.now.getTime() + file.horizonDays * DAY_MS);
  const taken = new TakenTimes(context.busy);
  const placed: DesiredPost[][] = file.entries.map(() => []);
  const waiting: number[] = [];

  file.entries.forEach((entry, index) => {
    const path = `posts[${index}]`;
    const zone = entry.timezone ?? file.timezone;
    const externalId = `${file.calendar}/${entry.key}`;
    const desired = (time: Temporal.ZonedDateTime | undefined, timeSource: TimeSource): DesiredPost =>
      desiredPost(entry, externalId, time, timeSource);
    try {
      if (entry.repeat !== undefined) {
        placed[index]?.push(...recurringPosts(entry, entry.repeat, externalId, zone, context.now, until));
      } else if (entry.at !== undefined) {
        placed[index]?.push(desired(parseAt(entry.at, zone), 'fixed'));
      } else if (entry.postId !== undefined) {
        // A bound post without `at` keeps whatever time it has: the entry says nothing of when.
        placed[index]?.push(desired(undefined, 'none'));
      } else {
        const kept = keptTime(context.existing.get(externalId), displayZone(file, entry));
        if (kept !== undefined) placed[index]?.push(desired(kept, 'kept'));
        else if (slotRulesOf(file, entry.post.accountId).length > 0) waiting.push(index);
        else if (entry.status === 'draft') placed[index]?.push(desired(undefined, 'none'));
        else {
          problems.add(
            path,
            `entry "${entry.key}" is scheduled but has no time: it needs at, repeat or a slot for its account ${entry.post.accountId}`,
          );
        }
      }
    } catch (error) {
      problems.add(`${path}.${entry.repeat === undefined ? 'at' : 'repeat'}`, messageOf(error));
    }
    for (const post of placed[index] ?? []) taken.add(post);
  });

  const slotsByAccount = new Map<string, Temporal.ZonedDateTime[]>();
  for (const index of waiting) {
    const entry = file.entries[index];
    if (entry === undefined) continue;
    const { accountId } = entry.post;
    let slots = slotsByAccount.get(accountId);
    if (slots === undefined) {
      slots = slotInstants(slotRulesOf(file, accountId), context.now, until);
      slotsByAccount.set(accountId, slots);
    }
    const free = slots.find((slot) => !taken.has(accountId, slot.epochMilliseconds));
    if (free === undefined) {
      problems.add(
        `posts[${index}]`,
        `entry "${entry.key}" finds no free slot of account ${accountId} within the horizon (${file.horizonDays} days)`,
      );
      continue;
    }
    const post = desiredPost(entry, `${file.calendar}/${entry.key}`, free, 'slot');
    taken.add(post);
    placed[index]?.push(post);
  }

  problems.throwIfAny();
  return placed.flat();
}

/** One post per occurrence in (now, until], each named by its local wall-clock time. */
function recurringPosts(
  entry: CalendarEntry,
  repeat: Recurrence,
  externalId: string,
  zone: string,
  now: Date,
  until: Date,
): DesiredPost[] {
  const byId = new Map<string, DesiredPost>();
  for (const occurrence of occurrencesBetween(repeat, zone, now, until)) {
    const id = `${externalId}@${localMinute(occurrence)}`;
    // Should a rule give one wall-clock time twice (the fall-back hour), an id names one post: the first.
    if (!byId.has(id)) byId.set(id, desiredPost(entry, id, occurrence, 'recurrence'));
  }
  return [...byId.values()];
}

function desiredPost(
  entry: CalendarEntry,
  externalId: string,
  time: Temporal.ZonedDateTime | undefined,
  timeSource: TimeSource,
): DesiredPost {
  const { platform, accountId, postType, content, media, platformOptions, firstComment, link } = entry.post;
  const body: DesiredPost['body'] = {
    platform,
    accountId,
    postType,
    content,
    status: entry.status,
    externalId,
  };
  if (time !== undefined) body.scheduledAt = toServiceTime(time);
  if (media !== undefined) body.media = media;
  if (platformOptions !== undefined) body.platformOptions = platformOptions;
  if (firstComment !== undefined) body.firstComment = firstComment;
  if (link !== undefined) body.link = link;
  const post: DesiredPost = { externalId, entryKey: entry.key, body, timeSource };
  if (entry.postId !== undefined) post.postId = entry.postId;
  if (time !== undefined) post.localTime = displayLocal(time);
  return post;
}

/** The time a post of the calendar already has: a re-run keeps it rather than moving the post. */
function keptTime(post: Post | undefined, zone: string): Temporal.ZonedDateTime | undefined {
  if (post?.scheduledAt === undefined || post.scheduledAt === null) return undefined;
  return parseAt(post.scheduledAt, zone);
}

function slotRulesOf(file: CalendarFile, accountId: string): SlotRule[] {
  return file.slots.filter((slot) => slot.accountId === accountId);
}

/** A kept time is shown in the entry's zone, else its account's slot zone (slots placed it), else the file's. */
function displayZone(file: CalendarFile, entry: CalendarEntry): string {
  return entry.timezone ?? slotRulesOf(file, entry.post.accountId)[0]?.timezone ?? file.timezone;
}

/**
 * The minutes each account already posts at. Compared by the minute: a post at 09:00:30 holds the
 * 09:00 slot, since two posts of one account a few seconds apart is what slots exist to avoid.
 */
class TakenTimes {
  private readonly byAccount = new Map<string, Set<number>>();

  constructor(busy: ExpandContext['busy']) {
    for (const post of busy) {
      const at = Date.parse(post.scheduledAt);
      if (!Number.isNaN(at)) this.mark(post.accountId, at);
    }
  }

  add(post: DesiredPost): void {
    if (post.body.scheduledAt !== undefined)
      this.mark(post.body.accountId, Date.parse(post.body.scheduledAt));
  }

  has(accountId: string, epochMs: number): boolean {
    return this.byAccount.get(accountId)?.has(Math.floor(epochMs / MINUTE_MS)) ?? false;
  }

  private mark(accountId: string, epochMs: number): void {
    let minutes = this.byAccount.get(accountId);
    if (minutes === undefined) {
      minutes = new Set();
      this.byAccount.set(accountId, minutes);
    }
    minutes.add(Math.floor(epochMs / MINUTE_MS));
  }
}
