import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_INSTAGRAM_DEFAULT_USER,
  type InstagramFake,
  startInstagramFake,
} from '../../infra/fake-networks/instagram/index.js';
import { newId } from '../../shared/domain/ids.js';
import { mediaObjectKey } from '../../shared/domain/media.js';
import type { Post } from '../../shared/domain/posts.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { consentAt } from './support/consent.js';

const BACK = 'https://app.example.com/connected';

/** A JPEG-looking file (the magic bytes the fake checks), small. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4092, 7)]);

/**
 * The photo network end to end: an Instagram account connected through the fake's consent page
 * and our callback (short-lived token exchanged for a long-lived one), then an image post
 * delivered by the worker: Instagram (the fake) fetches the image from a presigned GET of the
 * media bucket (s3rver on loopback), the container is published, and the post is `published`.
 */
describe('connecting an Instagram account and publishing an image through the fake', () => {
  let instagram: InstagramFake;
  let host: TestHost;
  let tenant: BootstrapResult;

  beforeAll(async () => {
    instagram = await startInstagramFake();
    const env = {
      INSTAGRAM_GRAPH_URL: instagram.graphUrl,
      INSTAGRAM_OAUTH_URL: instagram.oauthUrl,
      INSTAGRAM_AUTHORIZE_URL: instagram.authorizeUrl,
      INSTAGRAM_CLIENT_ID: instagram.clientId,
      INSTAGRAM_CLIENT_SECRET: instagram.clientSecret,
    };
    host = await startTestHost({
      networkEndpoints: loadNetworkEndpoints(env),
      appCredentials: envAppCredentials(env),
      delivery: { tokenRefreshIntervalMs: false, sandboxLatencyMs: { min: 0, max: 0 } },
    });
    tenant = await host.admin.bootstrap({ name: 'Photos' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [BACK] });
  });
  afterAll(async () => {
    await host?.stop();
    await instagram?.stop();
  });

  it('consent → account with a 60-day token; an image post is fetched from a 15-minute presigned URL and published', async () => {
    const started = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/connect`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'instagram', redirectUri: BACK }),
    });
    expect(started.status).toBe(200);
    const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
    expect(authorizeUrl.startsWith(instagram.authorizeUrl)).toBe(true);
    const back = await fetch(await consentAt(authorizeUrl), { redirect: 'manual' });
    expect(back.status).toBe(302);
    const accountId = String(new URL(String(back.headers.get('location'))).searchParams.get('accountId'));
    expect(accountId).toMatch(/^acc_/);
    const read = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
      apiKey: tenant.apiKey,
    });
    const account = (await read.json()) as Record<string, unknown>;
    expect(account).toMatchObject({
      platform: 'instagram',
      status: 'connected',
      networkUserId: FAKE_INSTAGRAM_DEFAULT_USER.userId,
      handle: `@${FAKE_INSTAGRAM_DEFAULT_USER.username}`,
    });
    expect(Date.parse(String(account.tokenExpiresAt))).toBeGreaterThan(Date.now() + 59 * 24 * 3600 * 1000);

    const mediaId = newId('media');
    const objectKey = mediaObjectKey(tenant.tenantId, tenant.workspaceId, mediaId);
    await host.deps.storage.put(objectKey, JPEG, 'image/jpeg');
    await host.deps.media.put({
      mediaId,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      filename: 'harbour.jpg',
      mimeType: 'image/jpeg',
      sizeBytes: JPEG.length,
      status: 'uploaded',
      objectKey,
      createdAt: new Date().toISOString(),
      uploadedAt: new Date().toISOString(),
    });

    const created = await postsClient(host, tenant).create({
      platform: 'instagram',
      accountId,
      status: 'publish',
      postType: 'image',
      content: 'The harbour at dawn',
      media: [
        { id: mediaId, alt: 'Boats in a harbour', userTags: [{ username: 'skipper', x: 0.4, y: 0.6 }] },
      ],
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const published = await eventually(
      async () => {
        const post = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
        return post.status === 'published' ? post : undefined;
      },
      { timeoutMs: 20_000, what: 'the Instagram post to be published' },
    );
    const [media] = instagram.control.media();
    expect(published).toMatchObject({ platformPostId: media?.id });
    expect(instagram.control.media()).toHaveLength(1);
    const [container] = instagram.control.containers();
    expect(container?.fetched).toEqual({ contentType: 'image/jpeg', bytes: JPEG.length });
    expect(container?.params).toMatchObject({
      caption: 'The harbour at dawn',
      alt_text: 'Boats in a harbour',
      user_tags: JSON.stringify([{ username: 'skipper', x: 0.4, y: 0.6 }]),
    });
    const [fetched] = instagram.control.fetchedUrls();
    const url = new URL(String(fetched));
    expect(url.pathname).toContain(objectKey);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Signature')).toBeTruthy();
  });
});
