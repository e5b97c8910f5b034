import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Person, type TestBrowser } from './support/browser.js';
import { type DashboardHost, type NewTenant, startDashboardHost } from './support/dashboard-host.js';
import { expectHeading, noticeOf, setPasswordThrough, signIn, unlabelledControls } from './support/person.js';

const PASSWORD = 'a long password for the owner';
const MB = 1024 * 1024;
/** A PNG's signature, then filler: storage and confirmMedia check the declared type and size only. */
const pngOf = (size: number) => {
  const bytes = Buffer.alloc(size, 0x2a);
  Buffer.from('89504e470d0a1a0a', 'hex').copy(bytes);
  return bytes;
};

/** What the browser sent: where, how, and its body's type. */
interface Sent {
  method: string;
  origin: string;
  path: string;
  contentType: string;
  /**
   * The body's bytes when Playwright can read it all (form fields, URL-encoded); null for a body
   * that carries a file (Chromium hands the page's file to the network without showing it).
   */
  body: Buffer | null;
}

/** Every request the page sends, from now on. */
function recordRequests(page: Page): Sent[] {
  const sent: Sent[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    sent.push({
      method: request.method(),
      origin: url.origin,
      path: url.pathname,
      contentType: request.headers()['content-type'] ?? '',
      body: request.postDataBuffer(),
    });
  });
  return sent;
}

/**
 * The composer's upload in a real browser against the local host, both ways (issue 27):
 * - with script, the file goes from the browser straight to storage (s3rver's origin, through the
 *   presigned URL; the page's CSP and the bucket's CORS allow it), larger than the dashboard would
 *   relay, and the dashboard only ever sees small form posts; the media is ticked in the form, which
 *   keeps what was typed; a refusal is said in the alert region;
 * - without script, the same form posts the file to the dashboard, which relays it as before.
 */
describe('a person uploads media from the composer', () => {
  let dash: DashboardHost;
  let browser: TestBrowser;
  let tenant: NewTenant;
  let withScript: Person;
  let withoutScript: Person;

  const composer = () => dash.url(`/workspaces/${tenant.workspaceId}/posts/new`);
  const storageOrigin = () => new URL(dash.host.s3Endpoint).origin;
  const dashboardOrigin = () => new URL(dash.host.baseUrl).origin;

  beforeAll(async () => {
    [dash, browser] = await Promise.all([startDashboardHost(), launchBrowser()]);
    tenant = await dash.bootstrapTenant('Harbour', 'owner@harbour.example');
    withScript = await browser.newPerson();
    await setPasswordThrough(withScript.page, tenant.ownerLink, PASSWORD);
    withoutScript = await browser.newPerson({ javaScriptEnabled: false });
    await signIn(withoutScript.page, dash.url('/sign-in'), tenant.ownerEmail, PASSWORD);
    await expectHeading(withoutScript.page, 'Workspaces');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dash?.stop();
  });

  it('sends a 5 MB image from the browser straight to storage and ticks it, keeping the text typed', async () => {
    // Prepare
    const { page, watch } = withScript;
    await page.goto(composer());
    await expectHeading(page, 'New post');
    await page.getByLabel('Text', { exact: true }).fill('Typed before the upload');
    const file = pngOf(5 * MB);
    const sent = recordRequests(page);

    // Act
    await page.getByLabel('File').setInputFiles({ name: 'quay.png', mimeType: 'image/png', buffer: file });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: 'Uploaded quay.png: it is ticked below.' }).waitFor();

    // Assess
    const put = sent.filter((request) => request.method === 'PUT');
    expect(put).toHaveLength(1);
    expect(put[0]?.origin).toBe(storageOrigin());
    expect(put[0]?.contentType).toBe('image/png');
    // The dashboard saw the name, type and size, never the bytes: no request to it carried the file.
    const toDashboard = sent.filter((request) => request.origin === dashboardOrigin());
    expect(toDashboard.map((request) => `${request.method} ${request.path}`)).toEqual(
      expect.arrayContaining([
        `POST /dashboard/workspaces/${tenant.workspaceId}/posts/new/media/url`,
        expect.stringMatching(/^POST \/dashboard\/workspaces\/wks_\w+\/posts\/new\/media\/med_\w+\/confirm$/),
      ]),
    );
    // Each post to the dashboard was URL-encoded fields, read whole here: a few hundred bytes.
    for (const request of toDashboard.filter((one) => one.method === 'POST')) {
      expect(request.contentType).toBe('application/x-www-form-urlencoded;charset=UTF-8');
      expect(request.body?.length).toBeLessThan(1024);
    }
    expect(toDashboard.some((request) => request.path.endsWith('/posts/new/media'))).toBe(false);

    const image = page.getByRole('checkbox', { name: 'quay.png (image/png)' });
    expect(await image.isChecked()).toBe(true);
    const mediaId = String(await image.getAttribute('value'));
    const stored = await dash.host.deps.media.get(tenant.tenantId, tenant.workspaceId, mediaId);
    expect(stored).toMatchObject({ status: 'uploaded', sizeBytes: 5 * MB, mimeType: 'image/png' });
    expect(await page.getByLabel('Alt text for quay.png').count()).toBe(1);
    expect(await page.getByLabel('Text', { exact: true }).inputValue()).toBe('Typed before the upload');
    expect(await page.locator('#upload-progress').getAttribute('value')).toBe('100');
    expect(await unlabelledControls(page)).toEqual([]);
    expect(watch.cspViolations).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
  }, 60_000);

  it("says the API's refusal in the alert region, and sends nothing to storage", async () => {
    // Prepare
    const { page, watch } = withScript;
    await page.goto(composer());
    await expectHeading(page, 'New post');
    const sent = recordRequests(page);

    // Act
    await page
      .getByLabel('File')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not media') });
    await page.getByRole('button', { name: 'Upload' }).click();
    const alert = page.locator('#upload-alert p.alert');
    await alert.waitFor();

    // Assess
    expect(await alert.innerText()).toMatch(
      /^Upload failed: The request does not match the schema; see details\. mimeType: Invalid option/,
    );
    expect(sent.some((request) => request.origin === storageOrigin())).toBe(false);
    expect(await page.getByRole('button', { name: 'Upload' }).isEnabled()).toBe(true);
    expect(watch.pageErrors).toEqual([]);
  }, 60_000);

  it('without script, posts the file to the dashboard, which relays it (the fallback)', async () => {
    // Prepare
    const { page } = withoutScript;
    await page.goto(composer());
    await expectHeading(page, 'New post');
    const sent = recordRequests(page);

    // Act
    await page
      .getByLabel('File')
      .setInputFiles({ name: 'dock.png', mimeType: 'image/png', buffer: pngOf(2048) });
    await Promise.all([page.waitForURL(/media=med_/), page.getByRole('button', { name: 'Upload' }).click()]);

    // Assess
    expect(await noticeOf(page)).toBe('Media uploaded: it is ticked below.');
    expect(await page.getByRole('checkbox', { name: 'dock.png (image/png)' }).isChecked()).toBe(true);
    const relayed = sent.find(
      (request) => request.method === 'POST' && request.path.endsWith('/posts/new/media'),
    );
    expect(relayed?.origin).toBe(dashboardOrigin());
    expect(relayed?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.some((request) => request.origin === storageOrigin())).toBe(false);
    expect(await page.locator('p.hint', { hasText: 'at most 4 MB here' }).count()).toBe(1);
  }, 60_000);
});
