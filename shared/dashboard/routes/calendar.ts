import type { Context, Hono } from 'hono';
import { adminsWorkspace } from '../../domain/user-access.js';
import { callOperation } from '../call-operation.js';
import type { DashboardEnv } from '../env.js';
import { page } from '../pages.js';
import type { AccountResource } from '../views/accounts-table.js';
import { calendarBody } from '../views/calendar.js';
import { type CalendarView, calendarRange, dayKey } from '../views/calendar-dates.js';
import { calendarTime } from '../views/calendar-entry.js';
import { pageStatusOf } from '../views/posts-format.js';
import type { PostResource } from '../views/posts-list.js';

/** At most this many pages of 100 posts per listing: a calendar, not an export. */
const MAX_PAGES = 5;

/** Fixed messages for `?done=`: the query never puts its own text on the page. */
const NOTICES: Record<string, string> = { rescheduled: 'Post rescheduled.' };

async function listAll(c: Context<DashboardEnv>, query: Record<string, string>) {
  const posts: PostResource[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages += 1) {
    const listed = await callOperation<{ data: PostResource[]; nextCursor: string | null }>(c, 'listPosts', {
      params: { workspace_id: c.var.workspace.workspaceId },
      query: { ...query, limit: '100', ...(cursor && { cursor }) },
    });
    if (!listed.ok) return listed;
    posts.push(...listed.body.data);
    cursor = listed.body.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return { ok: true as const, posts };
}

export function registerCalendarRoutes(app: Hono<DashboardEnv>): void {
  app.get('/workspaces/:workspaceId/calendar', async (c) => {
    const workspaceId = c.var.workspace.workspaceId;
    const view: CalendarView = c.req.query('view') === 'month' ? 'month' : 'week';
    const now = c.var.deps.services.clock.now();
    const { start, end, anchor } = calendarRange(view, c.req.query('date'), now);
    const today = dayKey(new Date(now));
    const accountId = c.req.query('accountId')?.trim() ?? '';
    const status = c.req.query('status')?.trim() ?? '';
    const filters = { ...(accountId && { accountId }), ...(status && { status }) };
    // Posts with a time in the range, and posts published in it without one (published at once).
    const [timed, published, accounts] = await Promise.all([
      listAll(c, {
        ...filters,
        scheduledFrom: start.toISOString(),
        scheduledTo: new Date(end.getTime() - 1).toISOString(),
      }),
      status === '' || status === 'published'
        ? listAll(c, { ...filters, status: 'published' })
        : Promise.resolve({ ok: true as const, posts: [] }),
      callOperation<{ data: AccountResource[] }>(c, 'listAccounts', {
        params: { workspace_id: workspaceId },
        query: { limit: '100' },
      }),
    ]);
    if (!timed.ok || !published.ok) {
      const error = !timed.ok ? timed.error : !published.ok ? published.error : undefined;
      return page(
        c,
        {
          title: 'Calendar',
          body: calendarBody(c, {
            workspaceId,
            query: { view, start, end, anchor, accountId: '', status: '' },
            posts: [],
            accounts: accounts.ok ? accounts.body.data : [],
            canChange: false,
            today,
          }),
          alert: error?.message ?? 'The posts could not be listed.',
        },
        error ? pageStatusOf(error) : 500,
      );
    }
    const inRange = (post: PostResource) => {
      const time = calendarTime(post);
      return time !== null && time >= start.toISOString() && time < end.toISOString();
    };
    const seen = new Set<string>();
    const posts = [...timed.posts, ...published.posts].filter((post) => {
      if (seen.has(post.id) || !inRange(post)) return false;
      seen.add(post.id);
      return true;
    });
    const notice = NOTICES[c.req.query('done') ?? ''];
    return page(c, {
      title: 'Calendar',
      body: calendarBody(c, {
        workspaceId,
        query: { view, start, end, anchor, accountId, status },
        posts,
        accounts: accounts.ok ? accounts.body.data : [],
        canChange: adminsWorkspace(c.var.signedIn.user, workspaceId),
        today,
      }),
      ...(notice && { notice }),
    });
  });
}
