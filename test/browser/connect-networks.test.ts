import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_DEFINITIONS } from '../../shared/networks/definitions.js';
import { launchBrowser, type Person, type TestBrowser } from './support/browser.js';
import { type DashboardHost, startDashboardHost } from './support/dashboard-host.js';
import { expectHeading, noticeOf, setPasswordThrough } from './support/person.js';

/**
 * Every network of the registry connects from the dashboard's Accounts page through its fake's own
 * consent page, as a person would: choose the network, Connect account, approve on the network's
 * page (each fake's approve button: `decision=approve`), and land back on Accounts with the account
 * listed as connected. A network added to the registry is in this test without an edit.
 */
describe('each network connects from the Accounts page through its consent page', () => {
  let dash: DashboardHost;
  let browser: TestBrowser;
  let owner: Person;
  let page: Page;
  let accountsPath = '';

  beforeAll(async () => {
    [dash, browser] = await Promise.all([startDashboardHost(), launchBrowser()]);
    const tenant = await dash.bootstrapTenant('Every network', 'owner@every-network.example');
    accountsPath = `/workspaces/${tenant.workspaceId}/accounts`;
    owner = await browser.newPerson();
    page = owner.page;
    await setPasswordThrough(page, tenant.ownerLink, 'a long password for the owner');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dash?.stop();
  });
  afterEach(() => {
    expect(owner.watch.cspViolations).toEqual([]);
    expect(owner.watch.pageErrors).toEqual([]);
  });

  it.each(NETWORK_DEFINITIONS.map((definition) => [definition.displayName] as const))(
    '%s',
    async (displayName) => {
      await page.goto(dash.url(accountsPath));
      await expectHeading(page, 'Accounts');
      await page.getByLabel('Network', { exact: true }).selectOption({ label: displayName });
      await Promise.all([
        page.waitForURL((url) => url.origin !== new URL(dash.host.baseUrl).origin),
        page.getByRole('button', { name: 'Connect account' }).click(),
      ]);
      // The network's own page, on its fake's loopback port.
      await Promise.all([
        page.waitForURL(/\/dashboard\/workspaces\/wks_[0-9A-Z]{26}\/accounts\?accountId=acc_/),
        page.locator('button[name="decision"][value="approve"]').click(),
      ]);
      await expectHeading(page, 'Accounts');
      expect(await noticeOf(page)).toBe('Account connected.');
      const accountId = String(new URL(page.url()).searchParams.get('accountId'));
      const row = page.getByRole('row').filter({ hasText: accountId });
      await expect(row.getByText('connected', { exact: true }).count()).resolves.toBe(1);
      await expect(row.getByRole('cell', { name: displayName, exact: true }).count()).resolves.toBe(1);
    },
    60_000,
  );
});
