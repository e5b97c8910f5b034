import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postsClient, seedMedia } from '../support/post-fixtures.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, type Person, type TestBrowser, VIEWPORT } from './support/browser.js';
import { type DashboardHost, type NewTenant, startDashboardHost } from './support/dashboard-host.js';
import { expectHeading, noticeOf, setPasswordThrough, signIn } from './support/person.js';
import { screenshot } from './support/screenshots.js';

const PASSWORD = 'a long password for the owner';
const DAY = 86_400_000;
/** A phone's viewport: every page reflows to it without scrolling sideways. */
const PHONE = { width: 390, height: 800 } as const;

/** Noon UTC `days` from now (or `hour` o'clock), as the API answers it and as the calendar's date. */
function dayAhead(days: number, hour = 12): { iso: string; date: string } {
  const at = new Date(Math.floor(Date.now() / DAY) * DAY + days * DAY + hour * 3_600_000);
  return { iso: at.toISOString(), date: at.toISOString().slice(0, 10) };
}

/** Whether the focused element is the Reschedule disclosure of the given post's calendar entry. */
function focusOnReschedule(page: Page, postId: string): Promise<boolean> {
  return page.evaluate<boolean>(`(() => {
    const element = document.activeElement;
    return !!element && element.tagName === 'SUMMARY' && !!element.closest('li[data-post-id="${postId}"]');
  })()`);
}

/**
 * Every main page of the dashboard passes axe at WCAG 2 A/AA (signed out: sign-in and
 * set-password; signed in: the rest, with posts in them), the calendar's reschedule works from the
 * keyboard alone, and a thread's parts are edited from its page with its media and alt text kept.
 */
describe('the dashboard is accessible, page by page', () => {
  let dash: DashboardHost;
  let browser: TestBrowser;
  let tenant: NewTenant;
  let person: Person;
  let page: Page;
  let scheduledId = '';
  let threadId = '';
  let mediaId = '';
  const when = dayAhead(2);

  const workspacePath = (rest = '') => `/workspaces/${tenant.workspaceId}${rest}`;
  /**
   * What sticks out past the viewport's right edge (WCAG 1.4.10, reflow): each element that does
   * while its parent does not, as tag.class and its right edge; empty when nothing scrolls sideways.
   */
  const sideways = (on: Page) =>
    on.evaluate<string[]>(`(() => {
      const width = document.documentElement.clientWidth;
      const out = (element) => element.getBoundingClientRect().right > width + 1;
      return Array.from(document.body.querySelectorAll('*'))
        .filter((element) => out(element) && !(element.parentElement && out(element.parentElement)))
        .map((element) => element.tagName.toLowerCase() + (element.className ? '.' + String(element.className).replace(/ /g, '.') : '') + ' ' + Math.round(element.getBoundingClientRect().right) + 'px');
    })()`);
  /** The page as it stands: no axe violation; at a phone's width, nothing sticks out sideways. */
  const expectClean = async (on: Page, label: string) => {
    expect(await axeViolations(on), label).toEqual([]);
    await on.setViewportSize(PHONE);
    expect(await sideways(on), `${label} at ${PHONE.width} px`).toEqual([]);
    await on.setViewportSize(VIEWPORT);
  };
  const expectAxeClean = async (path: string, heading: string | RegExp) => {
    await page.goto(dash.url(path));
    await expectHeading(page, heading);
    await expectClean(page, path);
  };
  const createPost = async (body: Record<string, unknown>) => {
    const response = await postsClient(dash.host, tenant.bootstrap).create({
      platform: 'twitter',
      accountId: tenant.bootstrap.accounts.twitter,
      ...body,
    });
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const stored = (postId: string) => dash.host.deps.posts.get(tenant.tenantId, tenant.workspaceId, postId);

  beforeAll(async () => {
    [dash, browser] = await Promise.all([startDashboardHost(), launchBrowser()]);
    tenant = await dash.bootstrapTenant('Lighthouse', 'owner@lighthouse.example');
    person = await browser.newPerson();
    page = person.page;
    page.on('dialog', (dialog) => void dialog.accept());
    mediaId = await seedMedia(dash.host, tenant.bootstrap, 'image/png');
    scheduledId = await createPost({
      status: 'scheduled',
      postType: 'text',
      content: 'The lighthouse at noon',
      scheduledAt: when.iso,
    });
    threadId = await createPost({
      status: 'draft',
      postType: 'thread',
      content: [
        { text: 'First part', media: [{ id: mediaId, alt: 'A white lighthouse' }] },
        { text: 'Second part' },
      ],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dash?.stop();
  });
  afterEach(() => {
    expect(person.watch.cspViolations).toEqual([]);
    expect(person.watch.pageErrors).toEqual([]);
  });

  it('the set-password and sign-in pages, signed out', async () => {
    await page.goto(tenant.ownerLink);
    await expectHeading(page, 'Set your password');
    await expectClean(page, 'set-password');
    const stranger = await browser.newPerson();
    await stranger.page.goto(dash.url('/sign-in'));
    await expectHeading(stranger.page, 'Sign in');
    await expectClean(stranger.page, 'sign-in');
    await stranger.context.close();
    await setPasswordThrough(page, tenant.ownerLink, PASSWORD);
  }, 60_000);

  it('every main page signed in', async () => {
    const pages: Array<[string, string | RegExp]> = [
      ['/workspaces', 'Workspaces'],
      [workspacePath(), /Lighthouse/],
      [workspacePath('/accounts'), /Accounts/],
      [workspacePath('/posts'), 'Posts'],
      [workspacePath(`/posts/${scheduledId}`), `Post ${scheduledId}`],
      [workspacePath(`/posts/${threadId}`), `Post ${threadId}`],
      [workspacePath('/posts/new'), 'New post'],
      [workspacePath(`/calendar?view=week&date=${when.date}`), 'Calendar'],
      [workspacePath(`/calendar?view=month&date=${when.date}`), 'Calendar'],
      [workspacePath('/agents'), 'Agents and keys'],
      [workspacePath('/webhooks'), /Webhooks/],
      [workspacePath('/policies'), /Policies/],
      [workspacePath('/approvals'), /Approvals/],
      ['/users', /People|Users/],
      ['/me', /.+/],
    ];
    for (const [path, heading] of pages) await expectAxeClean(path, heading);
  }, 120_000);

  it('the pages a form leads to: an agent, its new key, a new webhook and its page, a refused sign-in', async () => {
    await page.goto(dash.url(workspacePath('/agents')));
    await page.getByLabel('Name').fill('Checker');
    await Promise.all([
      page.waitForURL(/\/agents\/agt_/),
      page.getByRole('button', { name: 'Create agent' }).click(),
    ]);
    await expectHeading(page, 'Agent Checker');
    await expectClean(page, 'agent');
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.locator('.secret').first().waitFor();
    await expectClean(page, 'new key');

    await page.goto(dash.url(workspacePath('/webhooks')));
    await page.getByLabel('URL').fill('http://127.0.0.1:9/hooks');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expectHeading(page, 'Webhook created');
    await expectClean(page, 'webhook created');
    await Promise.all([
      page.waitForURL(/\/webhooks\/whk_/),
      page.getByRole('link', { name: "Go to the webhook's page" }).click(),
    ]);
    await expectHeading(page, /^Webhook whk_/);
    await expectClean(page, 'webhook');

    const stranger = await browser.newPerson();
    const refused = await signIn(stranger.page, dash.url('/sign-in'), tenant.ownerEmail, 'not the password');
    expect(refused.status()).toBe(401);
    await expectClean(stranger.page, 'refused sign-in');
    await stranger.context.close();
  }, 60_000);

  it("reschedules from the calendar's month with the keyboard alone: Tab to it, Enter, a time typed, Enter", async () => {
    await page.goto(dash.url(workspacePath(`/calendar?view=month&date=${when.date}`)));
    await expectHeading(page, 'Calendar');
    // On a phone the month's cells stack, one day under the other.
    await page.setViewportSize(PHONE);
    expect(await sideways(page)).toEqual([]);
    await page.locator(`li[data-post-id="${scheduledId}"]`).scrollIntoViewIfNeeded();
    await screenshot(page, 'calendar-month-phone');
    await page.setViewportSize(VIEWPORT);
    await page.locator(`li[data-post-id="${scheduledId}"]`).scrollIntoViewIfNeeded();
    await screenshot(page, 'calendar-month');
    await page.evaluate('window.scrollTo(0, 0)');
    let presses = 0;
    while (!(await focusOnReschedule(page, scheduledId))) {
      presses += 1;
      expect(presses, 'Tab presses to reach Reschedule').toBeLessThan(150);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const input = page.locator(`li[data-post-id="${scheduledId}"] input[type="datetime-local"]`);
    expect(await input.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    // The field's value as the keyboard leaves it: the hour and minutes segments typed over.
    const later = dayAhead(2, 15);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1500');
    expect(await input.inputValue()).toBe(later.iso.slice(0, 16));
    await Promise.all([page.waitForURL(/done=rescheduled/), page.keyboard.press('Enter')]);
    expect(await noticeOf(page)).toBe('Post rescheduled.');
    expect((await stored(scheduledId))?.scheduledAt).toBe(later.iso);
    expect(await axeViolations(page), 'month after a reschedule').toEqual([]);
  }, 60_000);

  it("edits each part of a thread from its page, keeping the part's media and alt text", async () => {
    await page.goto(dash.url(workspacePath(`/posts/${threadId}`)));
    await expectHeading(page, `Post ${threadId}`);
    await page.getByLabel('Part 1').fill('First part, edited');
    await page.getByLabel('Part 2').fill('Second part, edited');
    await Promise.all([
      page.waitForURL(/done=saved/),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect(await noticeOf(page)).toBe('Post saved.');
    expect((await stored(threadId))?.content).toEqual([
      { text: 'First part, edited', media: [{ id: mediaId, alt: 'A white lighthouse' }] },
      { text: 'Second part, edited' },
    ]);

    // Refused: a part left with neither text nor media; the API's message beside that part.
    await page.getByLabel('Part 2').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.error-summary').waitFor();
    const part = page.getByLabel('Part 2');
    expect(await part.getAttribute('aria-invalid')).toBe('true');
    const describedBy = String(await part.getAttribute('aria-describedby'));
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toContain('needs text or media');
    await expectClean(page, 'a refused edit');
    expect((await stored(threadId))?.content).toEqual([
      { text: 'First part, edited', media: [{ id: mediaId, alt: 'A white lighthouse' }] },
      { text: 'Second part, edited' },
    ]);
  }, 60_000);

  it('the approvals queue with a post waiting, after Require approval is saved', async () => {
    await page.goto(dash.url(workspacePath('/policies')));
    await page.getByLabel('Require approval').check();
    await Promise.all([
      page.waitForURL(/done=/),
      page.getByRole('button', { name: 'Save policies' }).click(),
    ]);
    const waitingId = await createPost({
      status: 'scheduled',
      postType: 'text',
      content: 'Waiting for a yes',
      scheduledAt: dayAhead(3).iso,
    });
    expect((await stored(waitingId))?.status).toBe('pending_approval');
    await page.goto(dash.url(workspacePath('/approvals')));
    await expectHeading(page, 'Approvals');
    expect(await page.getByRole('button', { name: `Approve ${waitingId}` }).count()).toBe(1);
    await expectClean(page, 'approvals with a post waiting');
  }, 60_000);
});
