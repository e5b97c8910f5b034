import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
const DAY = 86_400_000;
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Noon UTC `days` from now, as a `datetime-local` value and as the API answers it. */
function noonIn(days: number, hour = 12): { input: string; iso: string; date: string } {
  const day = new Date(Math.floor(Date.now() / DAY) * DAY + days * DAY + hour * 3_600_000);
  return {
    input: day.toISOString().slice(0, 16),
    iso: day.toISOString(),
    date: day.toISOString().slice(0, 10),
  };
}

/** Ids used twice on the page: labels and ARIA references would point at the wrong element. */
function duplicateIds(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const seen = new Map();
    for (const element of document.querySelectorAll('[id]')) seen.set(element.id, (seen.get(element.id) || 0) + 1);
    return [...seen].filter(([, count]) => count > 1).map(([id]) => id);
  })()`);
}

/** How far the page scrolls sideways (0: it fits its viewport). */
function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

/**
 * A person works in a workspace from the dashboard, in a real browser against the local host:
 * creates an agent whose form starts read-only and gets exactly what was ticked; uploads an image
 * through the presigned URL, composes a post with it, sees the live Check's answer, schedules it; finds it in the week
 * and reschedules it there; cancels another from its page. Each page: labelled controls, no inline
 * code, unique ids; the posts table never scrolls sideways on a phone.
 */
describe('a person composes, schedules and reschedules from the dashboard', () => {
  let dash: DashboardHost;
  let browser: TestBrowser;
  let tenant: NewTenant;
  let person: Person;
  let page: Page;
  const when = noonIn(2);
  // The same day, later: still in the week the calendar shows.
  const later = noonIn(2, 15);

  const workspacePath = (rest = '') => `/workspaces/${tenant.workspaceId}${rest}`;
  const expectAccessibleAndStrict = async () => {
    expect(await unlabelledControls(page), page.url()).toEqual([]);
    expect(await inlineCode(page), page.url()).toEqual([]);
    expect(await duplicateIds(page), page.url()).toEqual([]);
  };
  /** The post as the API stores it. */
  const postOf = async (postId: string) =>
    dash.host.deps.posts.get(tenant.tenantId, tenant.workspaceId, postId);

  /** Composes and schedules a post for the X sandbox account; answers its id. */
  const compose = async (text: string, at: string, withImage: boolean) => {
    await page.goto(dash.url(workspacePath('/posts/new')));
    await expectHeading(page, 'New post');
    await page.getByRole('checkbox', { name: '@sandbox_short (X)' }).check();
    await page.getByLabel('Post type').selectOption(withImage ? 'image' : 'text');
    await page.getByLabel('Text', { exact: true }).fill(text);
    await page.getByLabel('Scheduled at').fill(at);
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.locator('p.notice').waitFor();
    expect(await noticeOf(page)).toBe('1 post created.');
    const link = page.getByRole('link', { name: 'post created' });
    return String(/pst_[0-9A-Z]{26}/.exec(String(await link.getAttribute('href')))?.[0]);
  };

  beforeAll(async () => {
    [dash, browser] = await Promise.all([startDashboardHost(), launchBrowser()]);
    tenant = await dash.bootstrapTenant('Atlas', 'owner@atlas.example');
    person = await browser.newPerson();
    page = person.page;
    page.on('dialog', (dialog) => void dialog.accept());
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

  it("starts a new agent's form with no write permission ticked, and makes the agent with exactly what was ticked", async () => {
    await page.goto(dash.url(workspacePath('/agents')));
    await expectHeading(page, 'Agents and keys');
    await expectAccessibleAndStrict();
    const group = page.getByRole('group', { name: 'Permissions' });
    const ticked: string[] = [];
    for (const box of await group.getByRole('checkbox').all()) {
      if (await box.isChecked()) ticked.push(String(await box.getAttribute('value')));
    }
    expect(ticked).toEqual(['posts:read', 'accounts:read']);

    await page.getByLabel('Name').fill('Drafter');
    await group.getByRole('checkbox', { name: /^posts:write/ }).check();
    await group.getByRole('checkbox', { name: /^accounts:read/ }).uncheck();
    await Promise.all([
      page.waitForURL(/\/agents\/agt_/),
      page.getByRole('button', { name: 'Create agent' }).click(),
    ]);
    await expectHeading(page, 'Agent Drafter');
    const agentId = String(/agt_[0-9A-Z]{26}/.exec(page.url())?.[0]);
    const agent = await dash.host.deps.tenancy.getAgent(tenant.tenantId, agentId);
    expect(agent?.permissions).toEqual(['posts:read', 'posts:write']);
  }, 60_000);

  it('uploads an image, checks the post, schedules it, and sees it in the calendar', async () => {
    await page.goto(dash.url(workspacePath('/posts/new')));
    await expectHeading(page, 'New post');
    await expectAccessibleAndStrict();
    await page.getByLabel('File').setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: PNG });
    // The script sends the file straight to storage and ticks it here (compose-upload.test.ts
    // follows the bytes); the page stays.
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: 'Uploaded harbour.png: it is ticked below.' }).waitFor();
    const image = page.getByRole('checkbox', { name: 'harbour.png (image/png)' });
    expect(await image.isChecked()).toBe(true);
    const mediaId = String(await image.getAttribute('value'));

    await page.getByRole('checkbox', { name: '@sandbox_short (X)' }).check();
    await page.getByLabel('Post type').selectOption('image');
    await page.getByLabel('Text', { exact: true }).fill('The harbour at noon');
    await page.getByLabel('Alt text for harbour.png').fill('Boats in a harbour');
    await page.getByLabel('X: replySettings').selectOption('following');
    await page.getByLabel('Scheduled at').fill(when.input);
    // validatePost's answer arrives while the page stays (the script's live Check), no button pressed.
    const composerUrl = page.url();
    await page.locator('#check-answer .outcomes').waitFor();
    expect(await page.locator('#check-answer').innerText()).toContain('@sandbox_short (X): ready');
    expect(page.url()).toBe(composerUrl);
    await expectAccessibleAndStrict();
    await screenshot(page, 'compose');

    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.locator('p.notice').waitFor();
    expect(await noticeOf(page)).toBe('1 post created.');
    const href = String(await page.getByRole('link', { name: 'post created' }).getAttribute('href'));
    const postId = String(/pst_[0-9A-Z]{26}/.exec(href)?.[0]);
    const stored = await postOf(postId);
    expect(stored).toMatchObject({
      status: 'scheduled',
      scheduledAt: when.iso,
      media: [{ id: mediaId, alt: 'Boats in a harbour' }],
      platformOptions: { twitter: { replySettings: 'following' } },
    });

    await page.goto(dash.url(workspacePath(`/calendar?view=week&date=${when.date}`)));
    await expectHeading(page, 'Calendar');
    await expectAccessibleAndStrict();
    const entry = page.locator(`li[data-post-id="${postId}"]`);
    expect(await entry.innerText()).toContain('The harbour at noon');
    await screenshot(page, 'calendar');

    // Keyboard only: the Reschedule disclosure opens with Enter, the new time is typed, Move sends it.
    await entry.locator('summary').focus();
    await page.keyboard.press('Enter');
    await entry.getByLabel('New time (UTC)').fill(later.input);
    await Promise.all([
      page.waitForURL(/done=rescheduled/),
      entry.getByRole('button', { name: 'Move' }).press('Enter'),
    ]);
    expect(await noticeOf(page)).toBe('Post rescheduled.');
    expect((await postOf(postId))?.scheduledAt).toBe(later.iso);
    const moved = page.locator(`li[data-post-id="${postId}"]`);
    expect(await moved.locator('time').getAttribute('datetime')).toBe(later.iso);
  }, 90_000);

  it('cancels another scheduled post from its page', async () => {
    const postId = await compose('Not this one', noonIn(4).input, false);
    await page.goto(dash.url(workspacePath(`/posts/${postId}`)));
    await expectHeading(page, `Post ${postId}`);
    await expectAccessibleAndStrict();
    await Promise.all([
      page.waitForURL(/done=cancelled/),
      page.getByRole('button', { name: 'Cancel post' }).click(),
    ]);
    expect(await noticeOf(page)).toBe('Post cancelled.');
    expect((await postOf(postId))?.status).toBe('cancelled');
    expect(await page.getByRole('button', { name: 'Cancel post' }).count()).toBe(0);
  }, 60_000);

  it('shows the posts by handle, in a table that fits a phone and a laptop', async () => {
    await page.goto(dash.url(workspacePath('/posts')));
    await expectHeading(page, 'Posts');
    expect(await page.locator('table.responsive').innerText()).toContain('@sandbox_short');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await sidewaysScroll(page), `${width} px`).toBe(0);
    }
    await page.setViewportSize({ width: 1200, height: 800 });
    const icon = await page.request.get(dash.url('/favicon.ico'));
    expect(icon.status()).toBe(200);
  }, 60_000);
});
