import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { adminsWorkspace } from '../../domain/user-access.js';
import { callOperation } from '../call-operation.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { readForm, textOf } from '../forms.js';
import { html } from '../html.js';
import { notFoundPage, page } from '../pages.js';
import { accountFacts } from '../views/accounts-detail.js';
import { accountMetricsSection, readAccountMetrics } from '../views/accounts-metrics.js';
import { accountsPageMessages, type PageMessages } from '../views/accounts-notices.js';
import {
  type AccountResource,
  type AccountRow,
  type AccountUsage,
  accountsTable,
  connectBodyOf,
  connectForm,
  isLocalHost,
  LOCAL_CONNECT_HELP,
} from '../views/accounts-table.js';
import { nextPageLink, pageStatusOf } from '../views/posts-format.js';
import { connectReturningTo } from './accounts-connect.js';

const PAGE_SIZE = '25';

interface AccountPage {
  data: AccountResource[];
  nextCursor: string | null;
}

const accountsPath = (workspaceId: string) => `${DASHBOARD_BASE}/workspaces/${workspaceId}/accounts`;

/** Today's quota use of one account (only its single read has it); undefined when that failed. */
async function usageOf(c: Context<DashboardEnv>, workspaceId: string, accountId: string) {
  const read = await callOperation<{ usage: AccountUsage }>(c, 'getAccount', {
    params: { workspace_id: workspaceId, account_id: accountId },
  });
  return read.ok ? read.body.usage : undefined;
}

/** The accounts page: one page of the listing, each account's quota use, the connect form. */
async function accountsPage(
  c: Context<DashboardEnv>,
  messages: PageMessages,
  status: ContentfulStatusCode = 200,
) {
  const workspaceId = c.var.workspace.workspaceId;
  const cursor = c.req.query('cursor');
  const listed = await callOperation<AccountPage>(c, 'listAccounts', {
    params: { workspace_id: workspaceId },
    query: { limit: PAGE_SIZE, ...(cursor && { cursor }) },
  });
  if (!listed.ok) {
    return page(
      c,
      { title: 'Accounts', body: html``, alert: listed.error.message },
      pageStatusOf(listed.error),
    );
  }
  const rows: AccountRow[] = await Promise.all(
    listed.body.data.map(async (account) => {
      const usage = await usageOf(c, workspaceId, account.id);
      return usage ? { account, usage } : { account };
    }),
  );
  const canChange = adminsWorkspace(c.var.signedIn.user, workspaceId);
  const body = html`${accountsTable(c, workspaceId, rows, canChange)}${nextPageLink(
    accountsPath(workspaceId),
    {},
    listed.body.nextCursor,
  )}${canChange ? connectForm(c, workspaceId) : html``}`;
  return page(c, { title: 'Accounts', body, ...messages }, status);
}

/** Whether `accountId` (from a connect's return) is an account of this workspace. */
async function isAccountHere(c: Context<DashboardEnv>, accountId: string | undefined): Promise<boolean> {
  if (!accountId) return false;
  const read = await callOperation(c, 'getAccount', {
    params: { workspace_id: c.var.workspace.workspaceId, account_id: accountId },
  });
  return read.ok;
}

/** One account's page: its facts and its metrics over time (or why there are none). */
async function accountPage(c: Context<DashboardEnv>, accountId: string) {
  const workspaceId = c.var.workspace.workspaceId;
  const [read, metrics] = await Promise.all([
    callOperation<AccountResource>(c, 'getAccount', {
      params: { workspace_id: workspaceId, account_id: accountId },
    }),
    readAccountMetrics(c, workspaceId, accountId),
  ]);
  // A malformed id names nothing here either: the same page as an unknown one.
  if (!read.ok) {
    if (read.error.status === 404 || read.error.status === 400) return notFoundPage(c);
    return page(c, { title: 'Account', body: html``, alert: read.error.message }, pageStatusOf(read.error));
  }
  const account = read.body;
  return page(c, {
    title: `Account ${account.handle}`,
    body: html`<p><a href="${accountsPath(workspaceId)}">All accounts</a></p>${accountFacts(
      workspaceId,
      account,
    )}${accountMetricsSection(workspaceId, account.platform, metrics)}`,
  });
}

export function registerAccountRoutes(app: Hono<DashboardEnv>): void {
  app.get('/workspaces/:workspaceId/accounts', async (c) => {
    const connectedHere = await isAccountHere(c, c.req.query('accountId'));
    const error = c.req.query('error');
    const done = c.req.query('done');
    const messages = accountsPageMessages(
      { ...(error !== undefined && { error }), ...(done !== undefined && { done }) },
      connectedHere,
    );
    return accountsPage(c, messages);
  });

  app.get('/workspaces/:workspaceId/accounts/:accountId', (c) => accountPage(c, c.req.param('accountId')));

  // Connect and reconnect alike: connecting the same network user again keeps the account's id.
  app.post('/workspaces/:workspaceId/accounts/connect', async (c) => {
    const workspaceId = c.var.workspace.workspaceId;
    // `<platform>:<kind>` for a kind of app (a Pages choice, a community account's Reconnect).
    const body = connectBodyOf(textOf(await readForm(c), 'platform'));
    const publicBaseUrl = c.var.deps.services.publicBaseUrl;
    // Without its own address the service cannot be returned to: the API's operation says so (503).
    const operation = publicBaseUrl
      ? connectReturningTo(`${publicBaseUrl}${accountsPath(workspaceId)}`)
      : 'connectAccount';
    const started = await callOperation<{ authorizeUrl: string }>(c, operation, {
      params: { workspace_id: workspaceId },
      body,
    });
    if (started.ok) return c.redirect(started.body.authorizeUrl, 303);
    // On the local host "not configured" is the usual first answer: say how to get past it.
    const alert =
      started.error.code === 'network_not_configured' && isLocalHost(c)
        ? `${started.error.message} ${LOCAL_CONNECT_HELP}`
        : started.error.message;
    return accountsPage(c, { alert }, pageStatusOf(started.error));
  });

  app.post('/workspaces/:workspaceId/accounts/:accountId/disconnect', async (c) => {
    const workspaceId = c.var.workspace.workspaceId;
    const done = await callOperation(c, 'disconnectAccount', {
      params: { workspace_id: workspaceId, account_id: c.req.param('accountId') },
    });
    if (done.ok) return c.redirect(`${accountsPath(workspaceId)}?done=disconnected`, 303);
    if (done.error.status === 404) return notFoundPage(c);
    return accountsPage(c, { alert: done.error.message }, pageStatusOf(done.error));
  });
}
