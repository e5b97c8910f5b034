import type { Post, PostStatus } from '../types.js';
import type { DesiredPost, PlanItem } from './model.js';

/** An account as the forecast needs it: its daily ceiling (getAccount's usage) and label. */
export interface ForecastAccount {
  accountId: string;
  platform: string;
  displayName?: string;
  handle?: string;
  /** The daily ceiling in `unit`. */
  limit: number;
  unit: 'posts' | 'quota_units';
  /** What one post uses of the ceiling: 1 where posts are counted, 1600 units for a YouTube upload. */
  costPerPost: number;
  /** Today's use so far, in `unit`. */
  usedToday?: number;
  /** The UTC day `usedToday` counts, YYYY-MM-DD. */
  today: string;
}

export interface ForecastInput {
  desired: DesiredPost[];
  items: PlanItem[];
  /** Scheduled posts of the calendar's accounts that the calendar does not manage. */
  others: Post[];
  accounts: ForecastAccount[];
}

/** One account on one UTC day (every network's quota resets at 00:00 UTC). */
export interface ForecastRow {
  accountId: string;
  platform: string;
  /** displayName, else handle, else the id. */
  account: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** Posts the calendar will have scheduled there once applied. */
  calendar: number;
  /** Scheduled posts there that the calendar does not manage. */
  alreadyScheduled: number;
  /** Posts already made today (today's row only), rounded up from quota units. */
  usedToday?: number;
  /** The ceiling in posts: floor(limit / costPerPost). */
  limit: number;
  /** The day's posts would pass the ceiling (counted in the account's own unit). */
  over: boolean;
}

/**
 * Matched posts the apply leaves alone that will not post again: already counted in today's use
 * (published) or never to be sent (rejected, the creator's inbox).
 */
const NOT_POSTING: ReadonlySet<PostStatus> = new Set([
  'published',
  'awaiting_creator',
  'rejected',
  'failed',
  'cancelled',
]);

/**
 * Per account per UTC day the calendar puts a post on (today or later): what the calendar puts
 * there, what is already scheduled beside it, today's use, against the network's daily ceiling.
 * Posts the plan cancels are not desired, so they never count; unchanged ones do.
 */
export function forecastQuota(input: ForecastInput): ForecastRow[] {
  const accounts = new Map(input.accounts.map((account) => [account.accountId, account]));
  const itemByExternalId = new Map<string, PlanItem>();
  for (const item of input.items) {
    if (item.kind !== 'cancel') itemByExternalId.set(item.externalId, item);
  }
  const counts = new Map<
    string,
    { accountId: string; day: string; calendar: number; alreadyScheduled: number }
  >();
  const countOf = (accountId: string, day: string) => {
    const key = `${accountId} ${day}`;
    const found = counts.get(key);
    if (found) return found;
    const fresh = { accountId, day, calendar: 0, alreadyScheduled: 0 };
    counts.set(key, fresh);
    return fresh;
  };

  for (const want of input.desired) {
    const { body } = want;
    if (body.status === 'draft' || !body.scheduledAt) continue;
    const account = accounts.get(body.accountId);
    if (!account) continue;
    const post = itemByExternalId.get(want.externalId)?.post;
    if (post && NOT_POSTING.has(post.status)) continue;
    const day = utcDayOf(body.scheduledAt);
    if (day < account.today) continue;
    countOf(account.accountId, day).calendar++;
  }
  // A bound post may be listed among others too; it is counted once, as the calendar's.
  const planned = new Set(input.items.flatMap((item) => (item.post ? [item.post.id] : [])));
  // Only days the calendar touches get a row; others' posts on them are counted beside it.
  for (const post of input.others) {
    if (!post.scheduledAt || planned.has(post.id)) continue;
    const found = counts.get(`${post.accountId} ${utcDayOf(post.scheduledAt)}`);
    if (found) found.alreadyScheduled++;
  }

  const rows: ForecastRow[] = [];
  for (const count of counts.values()) {
    const account = accounts.get(count.accountId);
    if (!account) continue;
    rows.push(rowOf(account, count));
  }
  return rows.sort((a, b) =>
    a.day === b.day ? a.accountId.localeCompare(b.accountId) : a.day < b.day ? -1 : 1,
  );
}

function rowOf(
  account: ForecastAccount,
  count: { day: string; calendar: number; alreadyScheduled: number },
): ForecastRow {
  const cost = account.costPerPost > 0 ? account.costPerPost : 1;
  const usedUnits = count.day === account.today ? (account.usedToday ?? 0) : 0;
  const row: ForecastRow = {
    accountId: account.accountId,
    platform: account.platform,
    account: account.displayName ?? account.handle ?? account.accountId,
    day: count.day,
    calendar: count.calendar,
    alreadyScheduled: count.alreadyScheduled,
    limit: Math.floor(account.limit / cost),
    over: (count.calendar + count.alreadyScheduled) * cost + usedUnits > account.limit,
  };
  if (count.day === account.today) row.usedToday = Math.ceil(usedUnits / cost);
  return row;
}

function utcDayOf(timestamp: string): string {
  return new Date(Date.parse(timestamp)).toISOString().slice(0, 10);
}
