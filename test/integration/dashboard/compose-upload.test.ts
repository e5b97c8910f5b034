import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardAnswer, type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

const MB = 1024 * 1024;

interface Issued {
  mediaId: string;
  uploadUrl: string;
  headers: Record<string, string>;
  expiresAt: string;
}

const jsonOf = <T>(answer: DashboardAnswer) => JSON.parse(answer.html) as T;

/**
 * The composer's direct upload over real HTTP, as its script drives it: the dashboard issues the
 * presigned URL (createUploadUrl) and confirms (confirmMedia) as JSON; the bytes go from the
 * "browser" (here, fetch with the dashboard's Origin) straight to s3rver, above the 4 MB the
 * dashboard relays. The page's CSP allows exactly that storage origin; the fallback keeps its guard.
 */
describe("dashboard: the composer's direct upload", () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let admin: DashboardClient;
  let viewer: DashboardClient;
  let composer: string;

  const issue = (client: DashboardClient, file: { filename: string; mimeType: string; sizeBytes: number }) =>
    client.post(`${composer}/media/url`, {
      filename: file.filename,
      mimeType: file.mimeType,
      sizeBytes: String(file.sizeBytes),
    });

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Uploads', planTier: 'enterprise' });
    ({ client: admin } = await signedInAs(host, {
      role: 'workspace_admin',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    }));
    ({ client: viewer } = await signedInAs(host, {
      role: 'viewer',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    }));
    composer = `/workspaces/${tenant.workspaceId}/posts/new`;
  });
  afterAll(() => host?.stop());

  it("serves the composer with connect-src allowing the storage's origin, and the upload control for the script", async () => {
    // Act
    const page = await admin.get(composer);

    // Assess
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(`connect-src 'self' ${host.s3Endpoint};`);
    expect(page.html).toContain(`data-direct-upload="/dashboard${composer}/media"`);
    expect(page.html).toContain(
      'up to 20 MB, a video (MP4, QuickTime, WebM) up to 1 GB or a PDF up to 100 MB',
    );
    // Without script: the relay's images and 4 MB, as before.
    expect(page.html).toContain('at most 4 MB here');
    expect(page.html).toMatch(
      /<input id="field-file"[^>]*accept="image\/jpeg,image\/png,image\/gif,image\/webp,image\/heic"/,
    );
  });

  it('issues a URL for a 6 MB image, takes the PUT from the browser straight to storage, and confirms it', async () => {
    // Prepare
    const bytes = Buffer.alloc(6 * MB, 7);

    // Act
    const issued = await issue(admin, {
      filename: 'big.png',
      mimeType: 'image/png',
      sizeBytes: bytes.length,
    });
    const { mediaId, uploadUrl, headers } = jsonOf<Issued>(issued);
    const put = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { ...headers, Origin: host.baseUrl },
      body: bytes,
    });
    const confirmed = await admin.post(`${composer}/media/${mediaId}/confirm`);

    // Assess
    expect(issued.status).toBe(201);
    expect(issued.headers.get('content-type')).toMatch(/^application\/json/);
    expect(new URL(uploadUrl).origin).toBe(host.s3Endpoint);
    expect(headers).toEqual({ 'Content-Type': 'image/png', 'Content-Length': String(6 * MB) });
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBe(host.baseUrl);
    expect(confirmed.status).toBe(200);
    expect(jsonOf(confirmed)).toEqual({
      mediaId,
      filename: 'big.png',
      mimeType: 'image/png',
      status: 'uploaded',
    });
    const back = await admin.get(composer);
    expect(back.html).toContain(`value="${mediaId}"`);
  });

  it("answers the API's refusal as JSON: a type it does not take, a size above its limit", async () => {
    // Act
    const unsupported = await issue(admin, { filename: 'notes.txt', mimeType: 'text/plain', sizeBytes: 10 });
    const tooLarge = await issue(admin, { filename: 'huge.png', mimeType: 'image/png', sizeBytes: 21 * MB });

    // Assess
    expect(unsupported.status).toBe(400);
    // The schema's own words: the script shows the message and then each field's.
    const refused = jsonOf<{ message: string; fields: Record<string, string[]> }>(unsupported);
    expect(refused.message).toBe('The request does not match the schema; see details.');
    expect(Object.keys(refused.fields)).toEqual(['mimeType']);
    expect(refused.fields.mimeType?.join(' ')).toContain('"image/png"');
    expect(tooLarge.status).toBe(400);
    expect(jsonOf<{ message: string }>(tooLarge).message).toBe('The file is too large for a image.');
  });

  it('refuses to confirm before the file is in storage (409), leaving the media pending', async () => {
    // Prepare
    const { mediaId } = jsonOf<Issued>(
      await issue(admin, { filename: 'later.png', mimeType: 'image/png', sizeBytes: 5 }),
    );

    // Act
    const early = await admin.post(`${composer}/media/${mediaId}/confirm`);

    // Assess
    expect(early.status).toBe(409);
    expect(jsonOf<{ message: string }>(early).message).toBe(
      'Nothing has been uploaded yet: PUT the file to uploadUrl first.',
    );
    const media = await host.call(`/v1/workspaces/${tenant.workspaceId}/media/${mediaId}`, {
      apiKey: tenant.apiKey,
    });
    expect(((await media.json()) as { status: string }).status).toBe('pending');
  });

  it('refuses a URL without the CSRF token, and to a viewer, issuing nothing', async () => {
    // Prepare
    const before = await host.call(`/v1/workspaces/${tenant.workspaceId}/media?limit=100`, {
      apiKey: tenant.apiKey,
    });
    const count = ((await before.json()) as { data: unknown[] }).data.length;

    // Act
    const forged = await admin.post(
      `${composer}/media/url`,
      { filename: 'a.png', mimeType: 'image/png', sizeBytes: '5' },
      { csrf: false },
    );
    const viewed = await issue(viewer, { filename: 'a.png', mimeType: 'image/png', sizeBytes: 5 });

    // Assess
    expect(forged.status).toBe(403);
    expect(viewed.status).toBe(403);
    const after = await host.call(`/v1/workspaces/${tenant.workspaceId}/media?limit=100`, {
      apiKey: tenant.apiKey,
    });
    expect(((await after.json()) as { data: unknown[] }).data).toHaveLength(count);
  });

  it('keeps the fallback (the file through the dashboard) to 4 MB, with its own words', async () => {
    // Prepare
    const form = new FormData();
    form.set('_csrf', await admin.csrfToken());
    form.set('file', new Blob([Buffer.alloc(4 * MB + 1, 1)], { type: 'image/png' }), 'big.png');

    // Act
    const relayed = await fetch(`${host.baseUrl}/dashboard${composer}/media`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: `sp_session=${admin.cookie('sp_session')}`, Origin: host.baseUrl },
      body: form,
    });

    // Assess
    expect(relayed.status).toBe(422);
    expect(await relayed.text()).toContain(
      'The dashboard uploads files up to 4 MB; send larger ones through the API.',
    );
  });
});
