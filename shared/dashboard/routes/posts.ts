import type { Context, Hono } from 'hono';
import { callOperation } from '../call-operation.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { type FormProblem, problemFrom } from '../forms.js';
import { html } from '../html.js';
import { notFoundPage, page } from '../pages.js';
import type { AccountResource } from '../views/accounts-table.js';
import { postDetail } from '../views/posts-detail.js';
import { nextPageLink, pageStatusOf } from '../views/posts-format.js';
import { historyTable, readPostHistory } from '../views/posts-history.js';
import {
  FILTER_NAMES,
  filterForm,
  type PostFilters,
  type PostResource,
  postsTable,
  utcFromInput,
} from '../views/posts-list.js';

const PAGE_SIZE = '25';

interface Listing<T> {
  data: T[];
  nextCursor: string | null;
}

function filtersOf(c: Context<DashboardEnv>): PostFilters {
  const value = (name: (typeof FILTER_NAMES)[number]) => c.req.query(name)?.trim() ?? '';
  return {
    status: value('status'),
    accountId: value('accountId'),
    platform: value('platform'),
    scheduledFrom: value('scheduledFrom'),
    scheduledTo: value('scheduledTo'),
  };
}

/** The listing's query from the filters: empty ones left out, times read as UTC. */
function listingQuery(filters: PostFilters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (value === '') continue;
    query[name] = name === 'scheduledFrom' || name === 'scheduledTo' ? utcFromInput(value) : value;
  }
  return query;
}

/** The listing's refusal as the filter form shows it, by the form's field names. */
function filterProblem(error: unknown): FormProblem {
  const problem = problemFrom(error);
  const fields = Object.fromEntries(
    Object.entries(problem.fields).map(([name, messages]) => [name.replace(/^query\./, ''), messages]),
  );
  return { message: problem.message, fields };
}

/** The accounts the Account filter offers: the first page is enough for a choice list. */
async function accountChoices(c: Context<DashboardEnv>, workspaceId: string): Promise<AccountResource[]> {
  const listed = await callOperation<Listing<AccountResource>>(c, 'listAccounts', {
    params: { workspace_id: workspaceId },
    query: { limit: '100' },
  });
  return listed.ok ? listed.body.data : [];
}

export function registerPostRoutes(app: Hono<DashboardEnv>): void {
  app.get('/workspaces/:workspaceId/posts', async (c) => {
    const workspaceId = c.var.workspace.workspaceId;
    const filters = filtersOf(c);
    const query = listingQuery(filters);
    const cursor = c.req.query('cursor');
    const [listed, accounts] = await Promise.all([
      callOperation<Listing<PostResource>>(c, 'listPosts', {
        params: { workspace_id: workspaceId },
        query: { ...query, limit: PAGE_SIZE, ...(cursor && { cursor }) },
      }),
      accountChoices(c, workspaceId),
    ]);
    if (!listed.ok) {
      const problem = filterProblem(listed.error);
      const body = filterForm(workspaceId, filters, accounts, problem);
      return page(c, { title: 'Posts', body }, pageStatusOf(listed.error));
    }
    // The next page keeps the filters as the person typed them.
    const kept = Object.fromEntries(
      FILTER_NAMES.filter((name) => filters[name]).map((name) => [name, filters[name]]),
    );
    const body = html`${filterForm(workspaceId, filters, accounts)}${postsTable(workspaceId, listed.body.data)}${nextPageLink(
      `${DASHBOARD_BASE}/workspaces/${workspaceId}/posts`,
      kept,
      listed.body.nextCursor,
    )}`;
    return page(c, { title: 'Posts', body });
  });

  app.get('/workspaces/:workspaceId/posts/:postId', async (c) => {
    const workspaceId = c.var.workspace.workspaceId;
    const read = await callOperation<PostResource>(c, 'getPost', {
      params: { workspace_id: workspaceId, post_id: c.req.param('postId') },
    });
    // A malformed id names nothing here either: the same page as an unknown one.
    if (!read.ok) {
      if (read.error.status === 404 || read.error.status === 400) return notFoundPage(c);
      return page(c, { title: 'Post', body: html``, alert: read.error.message }, pageStatusOf(read.error));
    }
    const post = read.body;
    const history = await readPostHistory(c, workspaceId, post);
    return page(c, {
      title: `Post ${post.id}`,
      body: html`${postDetail(workspaceId, post)}${historyTable(history)}`,
    });
  });
}
