import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { adminsWorkspace } from '../../domain/user-access.js';
import { callOperation, type OperationOutcome } from '../call-operation.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { type FormProblem, problemFrom, readForm, textOf } from '../forms.js';
import { empty, html } from '../html.js';
import { notFoundPage, page } from '../pages.js';
import type { AccountResource } from '../views/accounts-table.js';
import { itemTextField, type PostEditValues, postActions, postPath } from '../views/posts-actions.js';
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
import { metricsSection, readPostMetrics } from '../views/posts-metrics.js';

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
    const body = html`${filterForm(workspaceId, filters, accounts)}${postsTable(workspaceId, listed.body.data, accounts)}${nextPageLink(
      `${DASHBOARD_BASE}/workspaces/${workspaceId}/posts`,
      kept,
      listed.body.nextCursor,
    )}`;
    return page(c, { title: 'Posts', body });
  });

  app.get('/workspaces/:workspaceId/posts/:postId', (c) => showPost(c, c.req.param('postId')));

  // The post's actions, each the API's operation; a refusal shows the post's page with it.
  app.post('/workspaces/:workspaceId/posts/:postId/edit', async (c) => {
    const postId = c.req.param('postId');
    const form = await readForm(c);
    const values: PostEditValues = {
      content: textOf(form, 'content'),
      items: partTexts(form),
      scheduledAt: textOf(form, 'scheduledAt'),
      status: textOf(form, 'status'),
    };
    const body: Record<string, unknown> = {};
    if (form.content !== undefined) body.content = values.content;
    if (values.items.length > 0) {
      // The parts as stored, each with its new text: their media and alt text go back unchanged.
      const read = await callOperation<PostResource>(c, 'getPost', {
        params: { workspace_id: c.var.workspace.workspaceId, post_id: postId },
      });
      if (!read.ok) return afterAction(c, postId, read, 'saved', { values });
      if (Array.isArray(read.body.content)) body.content = withPartTexts(read.body.content, values.items);
    }
    if (values.scheduledAt !== '') body.scheduledAt = utcFromInput(values.scheduledAt);
    if (values.status !== '') body.status = values.status;
    const changed = await callOperation<PostResource>(c, 'updatePost', {
      params: { workspace_id: c.var.workspace.workspaceId, post_id: postId },
      body,
    });
    return afterAction(c, postId, changed, 'saved', { values });
  });

  app.post('/workspaces/:workspaceId/posts/:postId/reschedule', async (c) => {
    const postId = c.req.param('postId');
    const form = await readForm(c);
    // The calendar's forms name the field after the post, so that each label has its own input.
    const scheduledAt = textOf(form, 'scheduledAt') || textOf(form, `scheduledAt-${postId}`);
    const changed = await callOperation<PostResource>(c, 'updatePost', {
      params: { workspace_id: c.var.workspace.workspaceId, post_id: postId },
      body: { scheduledAt: scheduledAt === '' ? '' : utcFromInput(scheduledAt) },
    });
    return afterAction(c, postId, changed, 'rescheduled', { back: textOf(form, 'back') });
  });

  app.post('/workspaces/:workspaceId/posts/:postId/cancel', async (c) => {
    const postId = c.req.param('postId');
    const cancelled = await callOperation<PostResource>(c, 'cancelPost', {
      params: { workspace_id: c.var.workspace.workspaceId, post_id: postId },
    });
    return afterAction(c, postId, cancelled, 'cancelled');
  });
}

/** The parts' texts the edit form sent (`content[0].text`, ...), in order; [] for a single text. */
function partTexts(form: Record<string, string | string[]>): string[] {
  const texts: string[] = [];
  for (let index = 0; form[itemTextField(index)] !== undefined; index += 1) {
    texts.push(textOf(form, itemTextField(index)));
  }
  return texts;
}

type ContentItems = Extract<PostResource['content'], readonly unknown[]>;

/**
 * The stored parts with the texts typed: a part left empty loses its text (the API then says
 * whether it still has media to stand on); parts beyond the form's are kept as they are.
 */
function withPartTexts(items: ContentItems, texts: readonly string[]): ContentItems {
  return items.map((item, index) => {
    const text = texts[index];
    if (text === undefined) return item;
    const { text: _previous, ...rest } = item;
    return text === '' ? rest : { ...rest, text };
  });
}

/** Fixed messages for `?done=`: the query never puts its own text on the page. */
const POST_NOTICES: Record<string, string> = {
  saved: 'Post saved.',
  rescheduled: 'Post rescheduled.',
  cancelled: 'Post cancelled.',
  created: 'Post created.',
};

/** The post's page; after a refused action, with the refusal and what was typed. */
async function showPost(
  c: Context<DashboardEnv>,
  postId: string,
  refused: { problem?: FormProblem; values?: PostEditValues; status?: ContentfulStatusCode } = {},
) {
  const workspaceId = c.var.workspace.workspaceId;
  const read = await callOperation<PostResource>(c, 'getPost', {
    params: { workspace_id: workspaceId, post_id: postId },
  });
  // A malformed id names nothing here either: the same page as an unknown one.
  if (!read.ok) {
    if (read.error.status === 404 || read.error.status === 400) return notFoundPage(c);
    return page(c, { title: 'Post', body: html``, alert: read.error.message }, pageStatusOf(read.error));
  }
  const post = read.body;
  const [history, account, metrics] = await Promise.all([
    readPostHistory(c, workspaceId, post),
    callOperation<AccountResource>(c, 'getAccount', {
      params: { workspace_id: workspaceId, account_id: post.accountId },
    }),
    // Only a published post has metrics: the others would only be told so.
    post.status === 'published' ? readPostMetrics(c, workspaceId, post.id) : undefined,
  ]);
  const actions = adminsWorkspace(c.var.signedIn.user, workspaceId)
    ? postActions(c, workspaceId, {
        post,
        ...(refused.values && { values: refused.values }),
        ...(refused.problem && { problem: refused.problem }),
      })
    : empty;
  const notice = refused.problem ? undefined : POST_NOTICES[c.req.query('done') ?? ''];
  return page(
    c,
    {
      title: `Post ${post.id}`,
      body: html`${postDetail(workspaceId, post, account.ok ? account.body.handle : undefined)}${
        metrics ? metricsSection(workspaceId, post.platform, metrics) : empty
      }${actions}${historyTable(history)}`,
      ...(notice && { notice }),
    },
    refused.status,
  );
}

/** Where a reschedule made from the calendar goes back to: only the calendar's own pages. */
function calendarReturn(workspaceId: string, back: string): string | undefined {
  const calendar = `${DASHBOARD_BASE}/workspaces/${workspaceId}/calendar`;
  if (back !== calendar && !back.startsWith(`${calendar}?`)) return undefined;
  return /[\s\\]/.test(back) ? undefined : back;
}

async function afterAction(
  c: Context<DashboardEnv>,
  postId: string,
  outcome: OperationOutcome<PostResource>,
  done: string,
  options: { values?: PostEditValues; back?: string } = {},
) {
  const workspaceId = c.var.workspace.workspaceId;
  if (outcome.ok) {
    const back = options.back ? calendarReturn(workspaceId, options.back) : undefined;
    if (back) return c.redirect(`${back}${back.includes('?') ? '&' : '?'}done=${done}`, 303);
    return c.redirect(`${postPath(workspaceId, postId)}?done=${done}`, 303);
  }
  if (outcome.error.status === 404) return notFoundPage(c);
  return showPost(c, postId, {
    problem: problemFrom(outcome.error),
    ...(options.values && { values: options.values }),
    status: pageStatusOf(outcome.error),
  });
}
