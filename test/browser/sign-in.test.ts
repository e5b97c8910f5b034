import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Person, type TestBrowser } from './support/browser.js';
import { type DashboardHost, type NewTenant, startDashboardHost } from './support/dashboard-host.js';
import {
  alertOf,
  expectHeading,
  focused,
  inlineCode,
  setPasswordThrough,
  signIn,
  unlabelledControls,
} from './support/person.js';
import { screenshot } from './support/screenshots.js';

const PASSWORD = 'correct horse battery staple';

/**
 * The dashboard's front door in a real browser: the owner's first link, signing out and in, a
 * wrong password, the keyboard path through the sign-in page, and a Content-Security-Policy that
 * lets no inline code run.
 */
describe('signing in to the dashboard in a browser', () => {
  let dash: DashboardHost;
  let browser: TestBrowser;
  let tenant: NewTenant;
  const people: Person[] = [];
  const newPerson = async () => {
    const person = await browser.newPerson();
    people.push(person);
    return person;
  };

  beforeAll(async () => {
    [dash, browser] = await Promise.all([startDashboardHost(), launchBrowser()]);
    tenant = await dash.bootstrapTenant('Front door', 'owner@front-door.example');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dash?.stop();
  });
  afterEach(() => {
    // No page of any test ran into the CSP: nothing inline was there to refuse.
    for (const person of people) {
      expect(person.watch.cspViolations).toEqual([]);
      expect(person.watch.pageErrors).toEqual([]);
    }
  });

  it('the owner sets a password through the one-time link and is signed in; the link then no longer works', async () => {
    const { page } = await newPerson();
    await setPasswordThrough(page, tenant.ownerLink, PASSWORD);
    await expect(page.getByRole('link', { name: 'Front door workspace' }).count()).resolves.toBe(1);

    const again = await page.goto(tenant.ownerLink);
    expect(again?.status()).toBe(410);
    await expectHeading(page, 'This link no longer works');
  }, 60_000);

  it('signs out; a wrong password is refused (401, the alert, the password not kept); the right one signs in', async () => {
    const { page, context } = await newPerson();
    await signIn(page, dash.url('/sign-in'), tenant.ownerEmail, PASSWORD);
    await expectHeading(page, 'Workspaces');

    await Promise.all([
      page.waitForURL(/\/dashboard\/sign-in$/),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    await expectHeading(page, 'Sign in');
    expect((await context.cookies()).some((cookie) => cookie.name === 'sp_session')).toBe(false);
    // Signed out, a page behind sign-in sends the browser back to the sign-in page.
    await page.goto(dash.url('/workspaces'));
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await screenshot(page, 'sign-in');

    const refused = await signIn(page, dash.url('/sign-in'), tenant.ownerEmail, 'not the password at all');
    expect(refused.status()).toBe(401);
    expect(await alertOf(page)).toBe('Email or password is wrong.');
    expect(await page.getByLabel('Password').inputValue()).toBe('');

    const accepted = await signIn(page, dash.url('/sign-in'), tenant.ownerEmail, PASSWORD);
    expect(accepted.status()).toBe(303);
    await expectHeading(page, 'Workspaces');
    const session = (await context.cookies()).find((cookie) => cookie.name === 'sp_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/dashboard' });
  }, 60_000);

  it('keyboard: Tab from the top reaches the skip link, the header link, Email, Password and Sign in in order; Enter submits; then the skip link and the navigation', async () => {
    const { page } = await newPerson();
    await page.goto(dash.url('/sign-in'));
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a Skip to content');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a Social publishing');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^input\[email\]/);
    await page.keyboard.type(tenant.ownerEmail);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^input\[password\]/);
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button Sign in');
    await page.keyboard.press('Shift+Tab');
    await Promise.all([page.waitForURL(/\/dashboard\/workspaces$/), page.keyboard.press('Enter')]);
    await expectHeading(page, 'Workspaces');

    // Signed in, the main navigation follows the skip link, then Sign out.
    const order: string[] = [];
    for (let step = 0; step < 7; step++) {
      await page.keyboard.press('Tab');
      order.push(await focused(page));
    }
    expect(order).toEqual([
      'a Skip to content',
      'a Social publishing',
      'a Workspaces',
      'a Tenant agents',
      'a Users',
      'a Your account',
      'button Sign out',
    ]);
    // The skip link takes the keyboard past the navigation, to the page's content.
    await page.reload();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a Skip to content');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatch(/^main\[content\]/);
  }, 60_000);

  it('every page answers a CSP without unsafe-inline and frame-ancestors none, holds no inline code, and labels its controls', async () => {
    const { page } = await newPerson();
    for (const path of [
      '/sign-in',
      '/workspaces',
      `/workspaces/${tenant.workspaceId}`,
      '/me',
      '/users',
      '/agents',
    ]) {
      if (path === '/workspaces') await signIn(page, dash.url('/sign-in'), tenant.ownerEmail, PASSWORD);
      const answer = await page.goto(dash.url(path));
      expect(answer?.status(), path).toBe(200);
      const csp = String(answer?.headers()['content-security-policy']);
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toContain('unsafe-inline');
      expect(csp, path).not.toContain('unsafe-eval');
      expect(await inlineCode(page), path).toEqual([]);
      expect(await unlabelledControls(page), path).toEqual([]);
      // The dashboard's own script did load (the CSP allows 'self').
      await expect(page.locator('script[src="/dashboard/assets/dashboard.js"]').count()).resolves.toBe(1);
    }
  }, 60_000);
});
