import { DEFAULT_HORIZON_DAYS, DEFAULT_TIMEZONE } from '../calendar/calendar-document.js';
import { KEY_PATTERN } from '../calendar/calendar-entry.js';
import type { CalendarEntry, CalendarFile } from '../calendar/model.js';
import { externalIdOf, fieldsOfPost } from '../calendar/post-fields.js';
import type { Post } from '../types.js';
import type { CalendarService } from './calendar-service.js';

export interface PullRange {
  from?: string;
  to?: string;
}

/** The statuses a calendar holds: what is still to be posted (pending approval counts as scheduled). */
const TIMED_STATUSES = ['scheduled', 'pending_approval'] as const;

/**
 * The workspace's scheduled, pending and draft posts as a calendar file, in time order (drafts
 * without a time last). A post of this calendar (externalId `<calendar>/<key>`) keeps its key; any
 * other post is named by its id and bound to it (`postId`), so applying the pulled file changes
 * nothing and never creates a second post.
 */
export async function pullCalendar(
  service: CalendarService,
  calendar: string,
  range: PullRange,
): Promise<CalendarFile> {
  const timed = (
    await Promise.all(
      TIMED_STATUSES.map((status) =>
        service.listPosts({
          status,
          ...(range.from && { scheduledFrom: range.from }),
          ...(range.to && { scheduledTo: range.to }),
        }),
      ),
    )
  ).flat();
  const drafts = (await service.listPosts({ status: 'draft' })).filter((post) => withinRange(post, range));
  const posts = [...timed, ...drafts].sort(byTime);
  return {
    calendar,
    timezone: DEFAULT_TIMEZONE,
    horizonDays: DEFAULT_HORIZON_DAYS,
    slots: [],
    entries: posts.map((post) => entryOf(post, calendar)),
  };
}

function entryOf(post: Post, calendar: string): CalendarEntry {
  const reading = fieldsOfPost(post);
  const prefix = `${calendar}/`;
  const externalId = externalIdOf(post);
  const ownKey = externalId?.startsWith(prefix) ? externalId.slice(prefix.length) : undefined;
  const keyed = ownKey !== undefined && KEY_PATTERN.test(ownKey);
  return {
    key: keyed ? ownKey : post.id,
    post: reading.post,
    status: reading.status,
    ...(reading.scheduledAt && { at: reading.scheduledAt }),
    // An occurrence of a recurring entry, or a post made elsewhere: bound by id, never created again.
    ...(!keyed && { postId: post.id }),
  };
}

/** A draft without a time is in every range; a timed one only within it. */
function withinRange(post: Post, range: PullRange): boolean {
  if (!post.scheduledAt) return true;
  const at = Date.parse(post.scheduledAt);
  if (range.from && at < Date.parse(range.from)) return false;
  if (range.to && at > Date.parse(range.to)) return false;
  return true;
}

function byTime(a: Post, b: Post): number {
  const at = (post: Post) => post.scheduledAt ?? '\uffff';
  return at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : a.id < b.id ? -1 : 1;
}
