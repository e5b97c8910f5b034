import type { CreatePostBody, Post } from '../types.js';

/**
 * A posting calendar as a file declares it (docs/calendars.md): the posts a workspace should hold,
 * some at fixed times, some recurring, some taking the next free slot of their account.
 */
export interface CalendarFile {
  /** Names the calendar: each of its posts carries the externalId `<calendar>/<entry key>`. */
  calendar: string;
  /** The zone of local times that name none (`at`, `start`, slots); an IANA name. Default UTC. */
  timezone: string;
  /** How far ahead recurring entries and slots are filled, in days from now. Default 30. */
  horizonDays: number;
  slots: SlotRule[];
  entries: CalendarEntry[];
}

export type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';

/** An account's posting times: e.g. weekdays 09:00 and 13:00 in Europe/Berlin. */
export interface SlotRule {
  accountId: string;
  timezone: string;
  days: Weekday[];
  /** Local wall-clock times, `HH:MM`, 24-hour. */
  times: string[];
}

/** What a post of the calendar says, besides when: the createPost body without status and time. */
export type PostFields = Pick<CreatePostBody, 'platform' | 'accountId' | 'postType' | 'content'> &
  Partial<Pick<CreatePostBody, 'media' | 'platformOptions' | 'firstComment' | 'link'>>;

export interface CalendarEntry {
  /** Unique within the file: `[A-Za-z0-9._-]{1,100}`. */
  key: string;
  post: PostFields;
  /** scheduled (default) or draft. */
  status: 'scheduled' | 'draft';
  /**
   * When: an ISO 8601 time with an offset or Z, or a local `YYYY-MM-DDTHH:MM` in `timezone`.
   * Absent (and no `repeat`): the next free slot of the account; a draft without slots stays timeless.
   */
  at?: string;
  /** The zone of `at` / `repeat.start` when they name none; defaults to the file's. */
  timezone?: string;
  repeat?: Recurrence;
  /** A pulled post that has no externalId of this calendar: the entry is that post (matched by id). */
  postId?: string;
}

/** RFC 5545: `rule` is an RRULE value (`FREQ=WEEKLY;BYDAY=MO`), `start` its local DTSTART. */
export interface Recurrence {
  rule: string;
  /** Local `YYYY-MM-DDTHH:MM` in the entry's zone: the first occurrence and the wall-clock time of all. */
  start: string;
}

/** Where a desired post's time came from (plan shows it). */
export type TimeSource = 'fixed' | 'recurrence' | 'slot' | 'kept' | 'none';

/** One post the calendar wants, after recurrences and slots are expanded. */
export interface DesiredPost {
  /** `<calendar>/<key>`, and for an occurrence `<calendar>/<key>@<local YYYY-MM-DDTHH:MM>`. */
  externalId: string;
  /** The entry it comes from. */
  entryKey: string;
  /** Set when the entry is bound to a post by id (pulled posts without externalId). */
  postId?: string;
  /** The createPost body it stands for: status scheduled or draft, scheduledAt in UTC (Z) when timed. */
  body: CreatePostBody & { externalId: string };
  timeSource: TimeSource;
  /** The local time and zone the time came from, for display (`2026-12-07 09:00 Europe/Berlin`). */
  localTime?: string;
}

/** What the service holds that the calendar is compared with. */
export interface ServiceState {
  /** Posts of this calendar (externalId prefix `<calendar>/`), any status. */
  managed: Post[];
  /** Posts bound by `postId` in the file. */
  bound: Post[];
  /** Scheduled posts of the calendar's accounts over the horizon that the calendar does not manage. */
  others: Post[];
}

export type ChangeKind = 'create' | 'reschedule' | 'edit' | 'cancel' | 'unchanged';

/** One line of a plan. */
export interface PlanItem {
  kind: ChangeKind;
  externalId: string;
  desired?: DesiredPost;
  /** The post it changes (absent for a create). */
  post?: Post;
  /** For edit/reschedule: the PATCH body (only the fields that differ). */
  patch?: Record<string, unknown>;
  /** The fields that differ, for display. */
  changedFields: string[];
  /** Why nothing is done though the entry differs (e.g. `already published`). */
  note?: string;
}
