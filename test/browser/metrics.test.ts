import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PostMetricValues } from '../../shared/domain/metrics.js';
import { eventually } from '../support/eventually.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, type Person, type TestBrowser, VIEWPORT } from './support/browser.js';
import { type DashboardHost, type NewTenant, startDashboardHost } from './support/dashboard-host.js';
import { expectHeading, noticeOf, setPasswordThrough } from './support/person.js';
import { screenshot } from './support/screenshots.js';

const PASSWORD = 'a long password for the owner';
const HOUR = 3_600_000;
/** A phone's viewport: the charts and their tables reflow to it without scrolling sideways. */
const PHONE = { width: 390, height: 800 } as const;
/** The host's time: the real one, moved on by the test (a collection an hour after publishing). */
const hostTime = { offsetMs: 0 };
const clock = { now: () => Date.now() + hostTime.offsetMs };

/**
 * A post published on the sandbox, its readings stored as the collection stores them (the
 * collection's own schedule runs hours later: the readings are written through the host's post
 * store), then read on its page (a chart and a table per metric, axe clean, no sideways scroll at
 * 390 px) and in the workspace overview's last 30 days.
 */
describe('metrics in the dashboard', () => {
  let dash: DashboardHost;
  let browser: TestBrowser;
  let tenant: NewTenant;
  let person: Person;
  let page: Page;
  let postId = '';

  const workspacePath = (rest = '') => `/workspaces/${tenant.workspaceId}${rest}`;
  /** Each element sticking out past the viewport's right edge while its parent does not. */
  const sideways = (on: Page) =>
    on.evaluate<string[]>(`(() => {
      const width = document.documentElement.clientWidth;
      const out = (element) => element.getBoundingClientRect().right > width + 1;
      return Array.from(document.body.querySelectorAll('*'))
        .filter((element) => out(element) && !(element.parentElement && out(element.parentElement)))
        .map((element) => element.tagName.toLowerCase() + ' ' + Math.round(element.getBoundingClientRect().right) + 'px');
    })()`);
  const expectClean = async (label: string) => {
    expect(await axeViolations(page), label).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await sideways(page), `${label} at ${PHONE.width} px`).toEqual([]);
    await page.setViewportSize(VIEWPORT);
  };

  beforeAll(async () => {
    [dash, browser] = await Promise.all([startDashboardHost({ clock }), launchBrowser()]);
    tenant = await dash.bootstrapTenant('Harbour', 'owner@harbour.example');
    person = await browser.newPerson();
    page = person.page;

    // Published on the sandbox by the host's delivery.
    const created = await postsClient(dash.host, tenant.bootstrap).create(
      tweet(tenant.bootstrap, { content: 'The harbour at dawn, three days on' }),
    );
    expect(created.status).toBe(201);
    postId = ((await created.json()) as { id: string }).id;
    const published = await eventually(
      async () => {
        const post = await dash.host.deps.posts.get(tenant.tenantId, tenant.workspaceId, postId);
        return post?.status === 'published' ? post : undefined;
      },
      { timeoutMs: 20_000, what: 'the post to be published on the sandbox' },
    );

    // Four readings as the schedule takes them (1 h, 6 h, 24 h, 3 d after publishing), the post
    // published three days and a bit ago; the next collection at 7 d.
    const at = Date.now() - 3 * 24 * HOUR - HOUR;
    const reading = (afterMs: number, metrics: PostMetricValues) => ({
      collectedAt: new Date(at + afterMs).toISOString(),
      metrics,
    });
    await dash.host.deps.posts.update(
      {
        ...published,
        publishedAt: new Date(at).toISOString(),
        metrics: {
          readings: [
            reading(HOUR, { impressions: 310, likes: 4, shares: 0, comments: 1 }),
            reading(6 * HOUR, { impressions: 1840, likes: 27, shares: 3, comments: 5 }),
            reading(24 * HOUR, { impressions: 5120, likes: 88, shares: 11, comments: 14 }),
            reading(72 * HOUR, { impressions: 7305, likes: 121, shares: 15, comments: 19 }),
          ],
          collection: { checks: 4, nextCollectAt: new Date(at + 7 * 24 * HOUR).toISOString() },
        },
        version: published.version + 1,
      },
      published.version,
    );
    await setPasswordThrough(page, tenant.ownerLink, PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dash?.stop();
  });
  afterEach(() => {
    expect(person.watch.cspViolations).toEqual([]);
    expect(person.watch.pageErrors).toEqual([]);
  });

  it('shows a chart and a table per metric on the post’s page, accessible and reflowing to a phone', async () => {
    await page.goto(dash.url(workspacePath(`/posts/${postId}`)));
    await expectHeading(page, `Post ${postId}`);

    const metrics = page.getByRole('region', { name: 'Metrics' });
    const charts = metrics.getByRole('img');
    await expect(charts.count()).resolves.toBe(4);
    await expect(
      metrics
        .getByRole('img', { name: /^Impressions over 4 readings: 310 at .*, 7,305 at .*, up 6,995\.$/ })
        .count(),
    ).resolves.toBe(1);
    await expect(
      metrics.getByRole('table', { name: 'Likes, each reading' }).getByRole('row').count(),
    ).resolves.toBe(5);
    await expect(metrics.getByText(/^Next collection: /).count()).resolves.toBe(1);
    await expectClean('post page with metrics');

    await page.evaluate(
      'window.scrollBy(0, document.getElementById("metrics-heading").getBoundingClientRect().top - 16)',
    );
    await screenshot(page, 'post-metrics');
    await page.setViewportSize(PHONE);
    await page.evaluate(
      'window.scrollBy(0, document.getElementById("metric-impressions").getBoundingClientRect().top - 16)',
    );
    await screenshot(page, 'post-metrics-phone');
    await page.setViewportSize(VIEWPORT);
  }, 60_000);

  it('totals the last 30 days per network on the workspace overview', async () => {
    await page.goto(dash.url(workspacePath()));
    await expectHeading(page, /Harbour/);

    const lastDays = page.getByRole('region', { name: 'Last 30 days' });
    const totals = lastDays.getByRole('table', { name: /^Totals per network/ });
    const xRow = totals.getByRole('row', { name: /^X / });
    await expect(xRow.getByRole('cell').allInnerTexts()).resolves.toEqual(
      expect.arrayContaining(['1', '7,305', '121', '19', '15']),
    );
    const best = lastDays.getByRole('table', { name: /^Best posts/ });
    await expect(
      best.getByRole('link', { name: 'The harbour at dawn, three days on' }).count(),
    ).resolves.toBe(1);
    await expectClean('overview with metrics');

    await page.evaluate(
      'window.scrollBy(0, document.getElementById("metrics-overview").getBoundingClientRect().top - 16)',
    );
    await screenshot(page, 'overview-metrics');
  }, 60_000);

  it('shows an account’s followers over time on its page, reached from the accounts table', async () => {
    // Prepare: the sandbox LinkedIn account's daily readings, as the collection stores them.
    const accountId = tenant.bootstrap.accounts.linkedin;
    const account = await dash.host.deps.tenancy.getAccount(tenant.tenantId, tenant.workspaceId, accountId);
    if (!account) throw new Error('no sandbox LinkedIn account');
    const day = (daysAgo: number, followers: number) => ({
      collectedAt: new Date(Date.now() - daysAgo * 24 * HOUR - 9 * HOUR).toISOString(),
      metrics: { followers },
    });
    await dash.host.deps.tenancy.recordAccountMetrics(tenant.tenantId, tenant.workspaceId, accountId, {
      readings: [day(4, 1204), day(3, 1211), day(2, 1219), day(1, 1230)],
    });

    // Act
    await page.goto(dash.url(workspacePath('/accounts')));
    await page.getByRole('link', { name: account.handle, exact: true }).click();

    // Assess
    await expectHeading(page, `Account ${account.handle}`);
    const metrics = page.getByRole('region', { name: 'Metrics' });
    await expect(
      metrics
        .getByRole('img', { name: /^Followers over 4 readings: 1,204 at .*, 1,230 at .*, up 26\.$/ })
        .count(),
    ).resolves.toBe(1);
    await expect(
      metrics.getByRole('table', { name: 'Followers, each reading' }).getByRole('row').count(),
    ).resolves.toBe(5);
    await expectClean('account page with metrics');

    await page.evaluate(
      'window.scrollBy(0, document.getElementById("metrics-heading").getBoundingClientRect().top - 16)',
    );
    await screenshot(page, 'account-metrics');
  }, 60_000);

  it('collects a post published on X’s fake an hour later, on schedule, and shows the reading', async () => {
    // Prepare: the workspace collects X (paid per read: off by default); an X account connected
    // through the fake's consent page; a post published through it.
    await dash.host.deps.tenancy.setMetricsCollection(tenant.tenantId, tenant.workspaceId, {
      platforms: ['twitter'],
    });
    await page.goto(dash.url(workspacePath('/accounts')));
    await page.getByLabel('Network').selectOption({ label: 'X' });
    await Promise.all([
      page.waitForURL((url) => url.origin !== new URL(dash.host.baseUrl).origin),
      page.getByRole('button', { name: 'Connect account' }).click(),
    ]);
    await Promise.all([
      page.waitForURL(/\/accounts\?accountId=acc_/),
      page.getByRole('button', { name: 'Authorize app' }).click(),
    ]);
    expect(await noticeOf(page)).toBe('Account connected.');
    const accountId = String(new URL(page.url()).searchParams.get('accountId'));
    const created = await postsClient(dash.host, tenant.bootstrap).create(
      tweet(tenant.bootstrap, { accountId, content: 'Read by the collection' }),
    );
    expect(created.status).toBe(201);
    const collectedId = ((await created.json()) as { id: string }).id;
    const stored = () => dash.host.deps.posts.get(tenant.tenantId, tenant.workspaceId, collectedId);
    const scheduled = await eventually(
      async () => {
        const post = await stored();
        return post?.status === 'published' && post.metrics?.collection ? post.metrics.collection : undefined;
      },
      { timeoutMs: 20_000, what: 'the post published with its first collection scheduled' },
    );

    // Act: the host's time passes the first collection's slot.
    hostTime.offsetMs = Date.parse(scheduled.nextCollectAt) - Date.now() + 60_000;
    await eventually(async () => ((await stored())?.metrics?.readings.length ?? 0) > 0 || undefined, {
      timeoutMs: 30_000,
      what: 'the first collection to store a reading',
    });

    // Assess
    await page.goto(dash.url(workspacePath(`/posts/${collectedId}`)));
    await expectHeading(page, `Post ${collectedId}`);
    const metrics = page.getByRole('region', { name: 'Metrics' });
    await expect(
      metrics.getByRole('img', { name: /: one reading so far, / }).count(),
    ).resolves.toBeGreaterThan(0);
    await expect(metrics.getByRole('table', { name: 'Impressions, each reading' }).count()).resolves.toBe(1);
    await expect(metrics.getByText(/^Next collection: /).count()).resolves.toBe(1);
    expect(await axeViolations(page)).toEqual([]);
  }, 90_000);
});
