import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../shared/domain/address-ranges.js';
import { mediaObjectKey } from '../../shared/domain/media.js';
import { makeMediaFetcher } from '../../shared/runtime/media-fetcher.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { eventually } from '../support/eventually.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { makeSelfSigned } from '../support/self-signed.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

interface MediaBody {
  mediaId: string;
  status: string;
  mimeType: string;
  sizeBytes: number;
  error?: { code: string };
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(60, 7)]);

/**
 * Media end to end on the local host: s3rver for storage (with real signature checks), a loopback
 * HTTPS server for "public" media, reached through the production fetcher with an injected
 * resolver (media.test → the loopback server, private.test → 10.0.0.7) and trust for its
 * self-signed certificate.
 */
describe('media on the local host', () => {
  let server: Server;
  let port: number;
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;
  const json = { 'Content-Type': 'application/json' };

  const call = (path: string, init: RequestInit = {}, apiKey = tenant.apiKey) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}${path}`, { ...init, apiKey });
  const getMedia = async (id: string) => (await (await call(`/media/${id}`)).json()) as MediaBody;
  const uploadUrl = (body: object) =>
    call('/media/upload-url', { method: 'POST', headers: json, body: JSON.stringify(body) });
  const settleMedia = (id: string) =>
    eventually(
      async () => {
        const media = await getMedia(id);
        return media.status === 'pending' ? undefined : media;
      },
      { what: `media ${id}` },
    );

  beforeAll(async () => {
    const tls = makeSelfSigned(['media.test', 'private.test']);
    server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
      if (request.url === '/cat.png') {
        response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length });
        response.end(PNG);
        return;
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const fetchMedia = makeMediaFetcher({
      lookup: async (name) => {
        if (name === 'media.test') return [{ address: '127.0.0.1', family: 4 }];
        if (name === 'private.test') return [{ address: '10.0.0.7', family: 4 }];
        throw Object.assign(new Error(`no such name ${name}`), { code: 'ENOTFOUND' });
      },
      ca: tls.cert,
      // Media URLs name port 443, the only one accepted; the connection goes to this test's server.
      request: (options) => httpsRequest({ ...options, port }),
      // The production policy, plus this test's loopback server.
      isAllowedAddress: (address) => address === '127.0.0.1' || isPublicAddress(address),
      timeoutMs: 5000,
    });
    host = await startTestHost({ delivery: { sandboxLatencyMs: { min: 0, max: 5 }, fetchMedia } });
    tenant = await host.admin.bootstrap({ name: 'Media' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const issue = async (mimeType = 'image/png', sizeBytes = PNG.length) => {
    const response = await uploadUrl({ filename: 'cat.png', mimeType, sizeBytes });
    expect(response.status).toBe(201);
    return (await response.json()) as {
      mediaId: string;
      uploadUrl: string;
      expiresAt: string;
      status: string;
      headers: Record<string, string>;
    };
  };
  const put = (url: string, body: Buffer, contentType: string) =>
    fetch(url, { method: 'PUT', headers: { 'Content-Type': contentType }, body });

  describe('presigned upload', () => {
    it('issues a URL valid 15 minutes for that type and size, counted in the media bucket', async () => {
      const response = await uploadUrl({ filename: 'cat.png', mimeType: 'image/png', sizeBytes: PNG.length });
      expect(response.headers.get('x-ratelimit-limit')).toBe('60');
      const issued = (await response.json()) as {
        mediaId: string;
        expiresAt: string;
        status: string;
        headers: Record<string, string>;
      };
      expect(issued.mediaId).toMatch(/^med_/);
      expect(issued.status).toBe('pending');
      expect(Math.abs(Date.parse(issued.expiresAt) - Date.now() - 15 * 60_000)).toBeLessThan(10_000);
      expect(issued.headers).toEqual({ 'Content-Type': 'image/png', 'Content-Length': String(PNG.length) });
    });

    it('confirm before the upload is 409 upload_incomplete and changes nothing', async () => {
      const issued = await issue();
      await expectEnvelope(
        await call(`/media/${issued.mediaId}/confirm`, { method: 'POST' }),
        409,
        'upload_incomplete',
      );
      expect((await getMedia(issued.mediaId)).status).toBe('pending');
    });

    it('storage refuses a PUT with another Content-Type or another length; the media stays pending', async () => {
      const issued = await issue();
      expect((await put(issued.uploadUrl, PNG, 'image/jpeg')).status).toBe(403);
      expect((await put(issued.uploadUrl, Buffer.concat([PNG, Buffer.from('x')]), 'image/png')).status).toBe(
        403,
      );
      expect((await put(issued.uploadUrl, PNG.subarray(1), 'image/png')).status).toBe(403);
      expect((await getMedia(issued.mediaId)).status).toBe('pending');
      expect(
        await host.deps.storage.head(mediaObjectKey(tenant.tenantId, tenant.workspaceId, issued.mediaId)),
      ).toBeUndefined();
    });

    it('the right PUT confirms itself; confirm afterwards answers the uploaded media again', async () => {
      const issued = await issue();
      expect((await put(issued.uploadUrl, PNG, 'image/png')).status).toBe(200);
      const media = await settleMedia(issued.mediaId);
      expect(media).toMatchObject({ status: 'uploaded', mimeType: 'image/png', sizeBytes: PNG.length });
      const confirmed = await call(`/media/${issued.mediaId}/confirm`, { method: 'POST' });
      expect(confirmed.status).toBe(200);
      expect(await confirmed.json()).toMatchObject({
        mediaId: issued.mediaId,
        status: 'uploaded',
        filename: 'cat.png',
      });
    });

    it.each([
      ['an unsupported type', { filename: 'a.bmp', mimeType: 'image/bmp', sizeBytes: 10 }, 'mimeType'],
      [
        'an image over 20 MiB',
        { filename: 'a.png', mimeType: 'image/png', sizeBytes: 20 * 1024 * 1024 + 1 },
        'sizeBytes',
      ],
      [
        'a video over 1 GiB',
        { filename: 'a.mp4', mimeType: 'video/mp4', sizeBytes: 1024 ** 3 + 1 },
        'sizeBytes',
      ],
      [
        'a file name with a slash',
        { filename: '../a.png', mimeType: 'image/png', sizeBytes: 10 },
        'filename',
      ],
      ['no size', { filename: 'a.png', mimeType: 'image/png' }, 'sizeBytes'],
    ])('answers 400 to %s', async (_case, body, field) => {
      const envelope = await expectEnvelope(await uploadUrl(body), 400, 'INVALID_REQUEST');
      expect(Object.keys(envelope.details as object)).toContain(field);
    });
  });

  describe('reading and deleting', () => {
    it('lists and reads media of the workspace only', async () => {
      const issued = await issue();
      const list = (await (await call('/media?limit=100')).json()) as { data: MediaBody[] };
      expect(list.data.map((m) => m.mediaId)).toContain(issued.mediaId);
      const other = await host.admin.bootstrap({ name: 'Other' });
      await expectEnvelope(
        await host.call(`/v1/workspaces/${other.workspaceId}/media/${issued.mediaId}`, {
          apiKey: other.apiKey,
        }),
        404,
        'not_found',
      );
      const second = await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Second' });
      const allAgent = await host.admin.createAgent(
        { role: 'super_admin' },
        { tenantId: tenant.tenantId, name: 'All', scope: { kind: 'all' } },
      );
      const allKey = await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: allAgent.agentId });
      const wrongWorkspace = await host.call(`/v1/workspaces/${second.workspaceId}/media/${issued.mediaId}`, {
        apiKey: allKey.plaintext,
      });
      await expectEnvelope(wrongWorkspace, 404, 'not_found');
    });

    it('DELETE removes the record and the object', async () => {
      const issued = await issue();
      await put(issued.uploadUrl, PNG, 'image/png');
      await settleMedia(issued.mediaId);
      const response = await call(`/media/${issued.mediaId}`, { method: 'DELETE' });
      expect(response.status).toBe(204);
      await expectEnvelope(await call(`/media/${issued.mediaId}`), 404, 'not_found');
      expect(
        await host.deps.storage.head(mediaObjectKey(tenant.tenantId, tenant.workspaceId, issued.mediaId)),
      ).toBeUndefined();
      await expectEnvelope(await call(`/media/${issued.mediaId}`, { method: 'DELETE' }), 404, 'not_found');
    });

    it('the short form DELETE /v1/media/{id} needs a workspace only when the key has several', async () => {
      const single = await issue();
      expect(
        (await host.call(`/v1/media/${single.mediaId}`, { method: 'DELETE', apiKey: tenant.apiKey })).status,
      ).toBe(204);

      const many = await issue();
      const second = await host.admin.createWorkspace({ tenantId: tenant.tenantId, name: 'Another' });
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        {
          tenantId: tenant.tenantId,
          name: 'Two',
          scope: { kind: 'selected', workspaceIds: [tenant.workspaceId, second.workspaceId] },
        },
      );
      const key = await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });
      const ambiguous = await host.call(`/v1/media/${many.mediaId}`, {
        method: 'DELETE',
        apiKey: key.plaintext,
      });
      const envelope = await expectEnvelope(ambiguous, 403, 'workspace_required');
      expect(envelope.available_workspaces).toEqual(
        expect.arrayContaining([tenant.workspaceId, second.workspaceId]),
      );
      const named = await host.call(`/v1/media/${many.mediaId}?workspaceId=${tenant.workspaceId}`, {
        method: 'DELETE',
        apiKey: key.plaintext,
      });
      expect(named.status).toBe(204);
    });
  });

  describe('import by URL', () => {
    const importUrl = (url: string, type = 'image') =>
      call('/media', { method: 'POST', headers: json, body: JSON.stringify({ url, type }) });

    it('fetches a public URL in the background: pending, then uploaded with the real type and size', async () => {
      const response = await importUrl(`https://media.test/cat.png`);
      expect(response.status).toBe(202);
      const accepted = (await response.json()) as MediaBody;
      expect(accepted.status).toBe('pending');
      expect(await settleMedia(accepted.mediaId)).toMatchObject({
        status: 'uploaded',
        mimeType: 'image/png',
        sizeBytes: PNG.length,
      });
    });

    it('a name that resolves to a private address ends failed with media_url_blocked, never fetched', async () => {
      const accepted = (await (await importUrl(`https://private.test/cat.png`)).json()) as MediaBody;
      expect(await settleMedia(accepted.mediaId)).toMatchObject({
        status: 'failed',
        error: { code: 'media_url_blocked' },
      });
    });

    it('a file of another kind than declared ends failed with media_type_mismatch', async () => {
      const accepted = (await (await importUrl(`https://media.test/cat.png`, 'video')).json()) as MediaBody;
      expect(await settleMedia(accepted.mediaId)).toMatchObject({
        status: 'failed',
        error: { code: 'media_type_mismatch' },
      });
    });

    it.each([
      'http://media.test/cat.png',
      'https://127.0.0.1/cat.png',
      'https://localhost/cat.png',
      'https://[::1]/a.png',
    ])('answers 400 at once to %s', async (url) => {
      await expectEnvelope(await importUrl(url), 400, 'INVALID_REQUEST');
    });
  });

  describe('posts with media, delivered through the sandbox', () => {
    const settlePost = (id: string) =>
      eventually(
        async () => {
          const post = (await (await posts.get(id)).json()) as {
            status: string;
            error: { code: string } | null;
          };
          return ['published', 'failed'].includes(post.status) ? post : undefined;
        },
        { what: `post ${id}` },
      );

    it('publishes a post with pre-uploaded media', async () => {
      const issued = await issue();
      await put(issued.uploadUrl, PNG, 'image/png');
      await settleMedia(issued.mediaId);
      const created = (await (
        await posts.create(
          tweet(tenant, { postType: 'image', media: [{ id: issued.mediaId, alt: 'A cat' }] }),
        )
      ).json()) as { id: string };
      expect(await settlePost(created.id)).toMatchObject({ status: 'published' });
    });

    it('publishes a post with URL media, fetched and stored before the network sees it', async () => {
      const created = (await (
        await posts.create(
          tweet(tenant, {
            postType: 'image',
            media: [{ url: `https://media.test/cat.png`, type: 'image' }],
          }),
        )
      ).json()) as { id: string };
      expect(await settlePost(created.id)).toMatchObject({ status: 'published' });
      const stored = await host.deps.storage.head(
        `t/${tenant.tenantId}/w/${tenant.workspaceId}/p/${created.id}/0`,
      );
      expect(stored).toEqual({ contentType: 'image/png', contentLength: PNG.length });
    });

    it('fails a post whose URL media is refused with media_url_blocked', async () => {
      const created = (await (
        await posts.create(
          tweet(tenant, {
            postType: 'image',
            media: [{ url: `https://private.test/cat.png`, type: 'image' }],
          }),
        )
      ).json()) as { id: string };
      expect(await settlePost(created.id)).toMatchObject({
        status: 'failed',
        error: { code: 'media_url_blocked' },
      });
    });

    it('fails a scheduled post whose media was deleted with DELETE before delivery: media_not_found', async () => {
      const issued = await issue();
      await put(issued.uploadUrl, PNG, 'image/png');
      await settleMedia(issued.mediaId);
      const scheduledAt = new Date(Date.now() + 2500).toISOString();
      const created = (await (
        await posts.create(
          tweet(tenant, {
            status: 'scheduled',
            scheduledAt,
            postType: 'image',
            media: [{ id: issued.mediaId }],
          }),
        )
      ).json()) as { id: string };
      expect((await call(`/media/${issued.mediaId}`, { method: 'DELETE' })).status).toBe(204);
      expect(await settlePost(created.id)).toMatchObject({
        status: 'failed',
        error: { code: 'media_not_found' },
      });
    });
  });
});
