import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../e2e/support/webhook-receiver.js';
import { eventually } from '../support/eventually.js';
import { launchBrowser, type Person, type TestBrowser } from './support/browser.js';
import { type DashboardHost, type NewTenant, startDashboardHost } from './support/dashboard-host.js';
import {
  expectHeading,
  inlineCode,
  noticeOf,
  setPasswordThrough,
  unlabelledControls,
} from './support/person.js';
import { screenshot } from './support/screenshots.js';

const PASSWORD = 'a long password for the owner';
const HOOK_PATH = '/hooks/dashboard';

/**
 * An owner's whole day in the dashboard, in a real browser against the local host with the fake
 * networks: a workspace; a LinkedIn account connected through the fake's consent page; an agent
 * and a key shown once and used against the API; approval required by policy, posts approved and
 * rejected; a webhook whose failed delivery is redelivered. Each main page is screenshotted and
 * checked for labelled controls and inline code. The tests run in order, one person throughout.
 */
describe('an owner runs a workspace from the dashboard', () => {
  let dash: DashboardHost;
  let browser: TestBrowser;
  let tenant: NewTenant;
  let receiver: WebhookReceiver;
  let owner: Person;
  let page: Page;
  let workspaceId = '';
  let accountId = '';
  let apiKey = '';

  const workspacePath = (rest = '') => `/workspaces/${workspaceId}${rest}`;
  /** The tests build on each other: one whose groundwork failed says so at once instead of timing out. */
  const requireEarlier = (values: Record<string, string>) => {
    for (const [what, value] of Object.entries(values))
      expect(value, `${what} from an earlier test`).not.toBe('');
  };

  /** What every main page must be: each control labelled, no inline code. */
  const expectAccessibleAndStrict = async () => {
    expect(await unlabelledControls(page), page.url()).toEqual([]);
    expect(await inlineCode(page), page.url()).toEqual([]);
  };

  beforeAll(async () => {
    [dash, browser, receiver] = await Promise.all([
      startDashboardHost(),
      launchBrowser(),
      startWebhookReceiver(),
    ]);
    tenant = await dash.bootstrapTenant('Harbour', 'owner@harbour.example');
    owner = await browser.newPerson();
    page = owner.page;
    await setPasswordThrough(page, tenant.ownerLink, PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dash?.stop();
    await receiver?.stop();
  });
  afterEach(() => {
    expect(owner.watch.cspViolations).toEqual([]);
    expect(owner.watch.pageErrors).toEqual([]);
  });

  it('creates a workspace and lands on its page; the list links to it', async () => {
    await page.goto(dash.url('/workspaces'));
    await page.getByLabel('Name').fill('Harbour news');
    await Promise.all([
      page.waitForURL(/\/dashboard\/workspaces\/wks_[0-9A-Z]{26}(\?|$)/),
      page.getByRole('button', { name: 'Create workspace' }).click(),
    ]);
    await expectHeading(page, 'Harbour news');
    workspaceId = String(/wks_[0-9A-Z]{26}/.exec(page.url())?.[0]);
    await expectAccessibleAndStrict();

    await page.goto(dash.url('/workspaces'));
    await expectHeading(page, 'Workspaces');
    await expect(page.getByRole('link', { name: 'Harbour news' }).getAttribute('href')).resolves.toBe(
      `/dashboard${workspacePath()}`,
    );
    await expectAccessibleAndStrict();
    await screenshot(page, 'workspaces');
  }, 60_000);

  it("connects a LinkedIn account through the fake network's consent page and comes back to Accounts", async () => {
    requireEarlier({ workspaceId });
    await page.goto(dash.url(workspacePath('/accounts')));
    await expectHeading(page, 'Accounts');
    await expectAccessibleAndStrict();
    await page.getByLabel('Network').selectOption({ label: 'LinkedIn' });
    await Promise.all([
      page.waitForURL((url) => url.origin !== new URL(dash.host.baseUrl).origin),
      page.getByRole('button', { name: 'Connect account' }).click(),
    ]);
    // The fake network's own page, on its own loopback port: a person presses Allow.
    expect(page.url().startsWith(String(dash.fakes.env.LINKEDIN_OAUTH_URL).replace(/\/$/, ''))).toBe(true);
    await Promise.all([
      page.waitForURL(/\/dashboard\/workspaces\/wks_[0-9A-Z]{26}\/accounts\?accountId=acc_/),
      page.getByRole('button', { name: 'Allow' }).click(),
    ]);
    await expectHeading(page, 'Accounts');
    expect(await noticeOf(page)).toBe('Account connected.');
    accountId = String(new URL(page.url()).searchParams.get('accountId'));
    const row = page.getByRole('row').filter({ hasText: accountId });
    await expect(row.getByText('connected', { exact: true }).count()).resolves.toBe(1);
    await expect(row.getByRole('cell', { name: 'LinkedIn' }).count()).resolves.toBe(1);
    await expect(row.getByRole('button', { name: /^Disconnect / }).count()).resolves.toBe(1);
    await screenshot(page, 'accounts');
  }, 60_000);

  it('creates an agent and a key; the key is shown once and works against the API', async () => {
    requireEarlier({ workspaceId });
    await page.goto(dash.url(workspacePath('/agents')));
    await expectHeading(page, 'Agents and keys');
    await expectAccessibleAndStrict();
    await page.getByLabel('Name').fill('Publisher');
    const permissions = page.getByRole('group', { name: 'Permissions' }).getByRole('checkbox');
    for (const box of await permissions.all()) await box.check();
    await Promise.all([
      page.waitForURL(/\/agents\/agt_/),
      page.getByRole('button', { name: 'Create agent' }).click(),
    ]);
    await expectHeading(page, 'Agent Publisher');
    const agentUrl = page.url();
    await expectAccessibleAndStrict();

    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = page.locator('#new-secret');
    apiKey = (await secret.innerText()).trim();
    expect(apiKey.length).toBeGreaterThan(20);
    await expect(page.getByText('Copy it now: it will not be shown again.').count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Copy' }).count()).resolves.toBe(1);
    await screenshot(page, 'agent-new-key', [secret]);

    // Back on the agent's page (as after a reload): the key is listed by its hint, never in full.
    await page.goto(agentUrl);
    await expectHeading(page, 'Agent Publisher');
    const shown = await page.content();
    expect(shown).not.toContain(apiKey);
    expect(shown).toContain(apiKey.slice(-4));
    await expect(page.locator('#new-secret').count()).resolves.toBe(0);

    const workspaces = await fetch(`${dash.host.baseUrl}/v1/workspaces`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    expect(workspaces.status).toBe(200);
    expect(JSON.stringify(await workspaces.json())).toContain(workspaceId);
  }, 60_000);

  it('requires approval through Policies; a post created with the key waits; one is approved, one rejected', async () => {
    requireEarlier({ workspaceId, accountId, apiKey });
    await page.goto(dash.url(workspacePath('/policies')));
    await expectHeading(page, 'Policies');
    await expectAccessibleAndStrict();
    await page.getByLabel('Require approval').check();
    await Promise.all([
      page.waitForURL(/\/policies(\?|$)/),
      page.getByRole('button', { name: 'Save policies' }).click(),
    ]);
    await page.goto(dash.url(workspacePath('/policies')));
    await expect(page.getByLabel('Require approval').isChecked()).resolves.toBe(true);
    await screenshot(page, 'policies');

    const create = async (content: string) => {
      const answer = await fetch(`${dash.host.baseUrl}/v1/workspaces/${workspaceId}/posts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          platform: 'linkedin',
          accountId,
          status: 'publish',
          postType: 'text',
          content,
        }),
      });
      expect(answer.status).toBe(201);
      const post = (await answer.json()) as { id: string; status: string };
      expect(post.status).toBe('pending_approval');
      return post.id;
    };
    const approved = await create('Ferry timetable for the winter');
    const rejected = await create('Draft that should not go out');

    await page.goto(dash.url(workspacePath('/approvals')));
    await expectHeading(page, 'Approvals');
    await expectAccessibleAndStrict();
    await expect(page.getByRole('link', { name: approved }).count()).resolves.toBe(1);
    await screenshot(page, 'approvals');

    await Promise.all([
      page.waitForURL(/\/approvals\?done=approved$/),
      page.getByRole('button', { name: `Approve ${approved}` }).click(),
    ]);
    expect(await noticeOf(page)).toBe('Post approved.');
    await page.locator(`#reason-${rejected}`).fill('Not ready yet');
    await Promise.all([
      page.waitForURL(/\/approvals\?done=rejected$/),
      page.getByRole('button', { name: `Reject ${rejected}` }).click(),
    ]);
    expect(await noticeOf(page)).toBe('Post rejected.');
    await expect(page.getByText('No posts are waiting for approval.').count()).resolves.toBe(1);

    // The approved post goes out to the fake LinkedIn; its page shows how it got there.
    await eventually(
      async () => {
        const read = await fetch(`${dash.host.baseUrl}/v1/workspaces/${workspaceId}/posts/${approved}`, {
          headers: { Authorization: `Bearer ${apiKey}` },
        });
        const post = (await read.json()) as { status: string };
        return post.status === 'published' ? post : undefined;
      },
      { timeoutMs: 20_000, what: 'the approved post to be published' },
    );
    await page.goto(dash.url(workspacePath('/posts')));
    await expectHeading(page, 'Posts');
    await expectAccessibleAndStrict();
    await expect(page.getByRole('link', { name: approved }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: rejected }).count()).resolves.toBe(1);
    await screenshot(page, 'posts');

    await Promise.all([
      page.waitForURL(new RegExp(`/posts/${approved}$`)),
      page.getByRole('link', { name: approved }).click(),
    ]);
    await expectHeading(page, `Post ${approved}`);
    await expectAccessibleAndStrict();
    // The history is read from the event feed, which holds an event a moment after its change.
    const history = page.getByRole('region', { name: 'Status history' }).getByRole('table');
    const postUrl = page.url();
    await eventually(
      async () => {
        await page.goto(postUrl);
        for (const event of ['approval.requested', 'approval.decided', 'post.published']) {
          if ((await history.getByRole('rowheader', { name: event }).count()) === 0) return undefined;
        }
        return true;
      },
      { timeoutMs: 20_000, intervalMs: 500, what: 'the post page to show its history' },
    );
    await screenshot(page, 'post-detail');
  }, 90_000);

  it("shows a webhook's failed delivery with its attempt and redelivers it", async () => {
    requireEarlier({ workspaceId });
    receiver.answer(HOOK_PATH, { status: 500 });
    await page.goto(dash.url(workspacePath('/webhooks')));
    await expectHeading(page, 'Webhooks');
    await expectAccessibleAndStrict();
    await page.getByLabel('URL').fill(receiver.url(HOOK_PATH));
    await page.getByRole('group', { name: 'Events' }).getByLabel('post.published').check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect(page.locator('#new-secret').innerText()).resolves.toMatch(/\S{16,}/);
    await Promise.all([
      page.waitForURL(/\/webhooks\/whk_/),
      page.getByRole('link', { name: "Go to the webhook's page" }).click(),
    ]);
    await expectHeading(page, /^Webhook whk_/);
    const webhookUrl = page.url();

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.waitForLoadState();
    const deliveries = page.getByRole('table', { name: /Deliveries/ });
    await eventually(
      async () => {
        await page.goto(webhookUrl);
        return (await deliveries.getByText('HTTP 500').count()) > 0 ? true : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 250, what: 'the failed attempt to show' },
    );
    expect(receiver.at(HOOK_PATH)).toHaveLength(1);
    await expect(deliveries.getByText('webhook.test').count()).resolves.toBe(1);

    await Promise.all([
      page.waitForURL(/done=/),
      deliveries.getByRole('button', { name: 'Redeliver' }).first().click(),
    ]);
    expect(await noticeOf(page)).toBe('Redelivery queued.');
    await eventually(async () => (receiver.at(HOOK_PATH).length === 2 ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the redelivery to reach the receiver',
    });
    await eventually(
      async () => {
        await page.goto(webhookUrl);
        return (await deliveries.getByText('HTTP 200').count()) > 0 ? true : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 250, what: 'the successful attempt to show' },
    );
    await expectAccessibleAndStrict();
    // The picture shows the deliveries, below the webhook's facts and actions.
    await page.evaluate(`document.getElementById('deliveries').scrollIntoView()`);
    await screenshot(page, 'webhook-deliveries');
  }, 90_000);
});
