import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BlueskyFake,
  FAKE_BLUESKY_DEFAULT_USER,
  FAKE_BLUESKY_FRIEND,
  startBlueskyFake,
} from '../../infra/fake-networks/bluesky/index.js';
import { newId } from '../../shared/domain/ids.js';
import { mediaObjectKey } from '../../shared/domain/media.js';
import type { Post } from '../../shared/domain/posts.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { requestConnect } from './support/connect.js';
import { consentAt } from './support/consent.js';

const BACK = 'https://app.example.com/connected';
const CLIENT_ID = 'https://api.example.com/v1/oauth/bluesky/client-metadata.json';

/**
 * Bluesky end to end through the local host and its fake: connect (our pushed authorization
 * request, the fake's consent page, our callback), then posts delivered by the worker: a text post
 * with a link and a mention, an image post, a thread; and our client metadata document served.
 */
describe('connecting a Bluesky account and publishing through the fake', () => {
  let bluesky: BlueskyFake;
  let host: TestHost;
  let tenant: BootstrapResult;
  let accountId: string;

  beforeAll(async () => {
    bluesky = await startBlueskyFake({ clientId: CLIENT_ID, videoPolls: 0 });
    const env = {
      BLUESKY_ENTRYWAY_URL: bluesky.entrywayUrl,
      BLUESKY_PLC_URL: bluesky.plcUrl,
      BLUESKY_VIDEO_URL: bluesky.videoUrl,
      BLUESKY_CLIENT_ID: bluesky.clientId,
      BLUESKY_CLIENT_SECRET: bluesky.clientSecret,
    };
    host = await startTestHost({
      networkEndpoints: loadNetworkEndpoints(env),
      appCredentials: envAppCredentials(env),
      delivery: { tokenRefreshIntervalMs: false, sandboxLatencyMs: { min: 0, max: 0 } },
    });
    tenant = await host.admin.bootstrap({ name: 'Skies' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [BACK] });
  });
  afterAll(async () => {
    await host?.stop();
    await bluesky?.stop();
  });

  const waitPublished = (id: string) =>
    eventually(
      async () => {
        const post = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
        return post.status === 'published' || post.status === 'failed' ? post : undefined;
      },
      { timeoutMs: 20_000, what: 'the Bluesky post to be published' },
    );

  it('connects through the consent page: the account is the DID, with its handle', async () => {
    const started = await requestConnect(host, tenant, 'bluesky', BACK);
    expect(started.status).toBe(200);
    const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
    // A pushed request: the consent URL carries only the client id and the request_uri.
    const consent = new URL(authorizeUrl);
    expect(consent.origin).toBe(bluesky.entrywayUrl);
    expect([...consent.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    const back = await fetch(await consentAt(authorizeUrl), { redirect: 'manual' });
    expect(back.status).toBe(302);
    accountId = String(new URL(String(back.headers.get('location'))).searchParams.get('accountId'));
    expect(accountId).toMatch(/^acc_/);
    const read = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
      apiKey: tenant.apiKey,
    });
    expect(await read.json()).toMatchObject({
      platform: 'bluesky',
      status: 'connected',
      networkUserId: FAKE_BLUESKY_DEFAULT_USER.did,
      handle: `@${FAKE_BLUESKY_DEFAULT_USER.handle}`,
      displayName: FAKE_BLUESKY_DEFAULT_USER.displayName,
    });
  });

  it('answers 503 (try again) when the authorization server does not take the pushed request', async () => {
    bluesky.control.inject(
      'par',
      { kind: 'reply', reply: { status: 503, json: { error: 'server_error' } } },
      2,
    );
    const started = await requestConnect(host, tenant, 'bluesky', BACK);
    expect(started.status).toBe(503);
    expect(started.headers.get('retry-after')).toBe('5');
    expect(JSON.stringify(await started.json())).not.toContain('server_error');
    bluesky.control.clearFailures();
  });

  it('publishes a text post with a link and a mention, an image with alt text, a thread and a video', async () => {
    const client = postsClient(host, tenant);
    const text = await client.create({
      platform: 'bluesky',
      accountId,
      status: 'publish',
      postType: 'text',
      content: `Hello @${FAKE_BLUESKY_FRIEND.handle}, see https://example.com #news`,
    });
    expect(text.status).toBe(201);
    const textPost = await waitPublished(((await text.json()) as { id: string }).id);
    expect(textPost).toMatchObject({ status: 'published' });
    const record = bluesky.control.posts().find((post) => post.uri === textPost.platformPostId);
    expect(record?.value.facets).toHaveLength(3);
    expect(textPost.platformPostUrl).toBe(
      `https://bsky.app/profile/${FAKE_BLUESKY_DEFAULT_USER.did}/post/${record?.rkey}`,
    );

    const mediaId = newId('media');
    const objectKey = mediaObjectKey(tenant.tenantId, tenant.workspaceId, mediaId);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(4088, 3),
    ]);
    await host.deps.storage.put(objectKey, png, 'image/png');
    await host.deps.media.put({
      mediaId,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      filename: 'sky.png',
      mimeType: 'image/png',
      sizeBytes: png.length,
      status: 'uploaded',
      objectKey,
      createdAt: new Date().toISOString(),
      uploadedAt: new Date().toISOString(),
    });
    const image = await client.create({
      platform: 'bluesky',
      accountId,
      status: 'publish',
      postType: 'image',
      content: 'The sky',
      media: [{ id: mediaId, alt: 'A blue sky' }],
    });
    const imagePost = await waitPublished(((await image.json()) as { id: string }).id);
    expect(imagePost).toMatchObject({ status: 'published' });
    expect(bluesky.control.posts().at(-1)?.value.embed).toMatchObject({
      $type: 'app.bsky.embed.images',
      images: [{ alt: 'A blue sky', image: { mimeType: 'image/png', size: png.length } }],
    });

    const thread = await client.create({
      platform: 'bluesky',
      accountId,
      status: 'publish',
      postType: 'thread',
      content: [{ text: 'First' }, { text: 'Second' }],
    });
    const threadPost = await waitPublished(((await thread.json()) as { id: string }).id);
    expect(threadPost).toMatchObject({ status: 'published' });
    const [first, second] = bluesky.control.posts().slice(-2);
    expect(threadPost.platformPostId).toBe(first?.uri);
    expect(second?.value.reply).toEqual({
      root: { uri: first?.uri, cid: first?.cid },
      parent: { uri: first?.uri, cid: first?.cid },
    });

    // A video: the worker re-queues the post while the video service processes it.
    const videoId = newId('media');
    const videoKey = mediaObjectKey(tenant.tenantId, tenant.workspaceId, videoId);
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70]), Buffer.alloc(8184, 5)]);
    await host.deps.storage.put(videoKey, mp4, 'video/mp4');
    await host.deps.media.put({
      mediaId: videoId,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      filename: 'clip.mp4',
      mimeType: 'video/mp4',
      sizeBytes: mp4.length,
      status: 'uploaded',
      objectKey: videoKey,
      createdAt: new Date().toISOString(),
      uploadedAt: new Date().toISOString(),
    });
    const video = await client.create({
      platform: 'bluesky',
      accountId,
      status: 'publish',
      postType: 'video',
      content: 'A clip',
      media: [{ id: videoId, alt: 'Clouds moving' }],
    });
    expect(video.status).toBe(201);
    const videoPost = await waitPublished(((await video.json()) as { id: string }).id);
    expect(videoPost).toMatchObject({ status: 'published' });
    expect(bluesky.control.posts().at(-1)?.value.embed).toMatchObject({
      $type: 'app.bsky.embed.video',
      alt: 'Clouds moving',
      video: { mimeType: 'video/mp4', size: mp4.length },
    });

    // Each post once.
    expect(bluesky.control.posts().map((post) => post.value.text)).toEqual([
      `Hello @${FAKE_BLUESKY_FRIEND.handle}, see https://example.com #news`,
      'The sky',
      'First',
      'Second',
      'A clip',
    ]);
  });

  it('refreshes an expired session with its single-use refresh token, stores the new one, and publishes', async () => {
    const sessionsBefore = bluesky.control.sessions().length;
    bluesky.control.expireAccessTokens();
    const created = await postsClient(host, tenant).create({
      platform: 'bluesky',
      accountId,
      status: 'publish',
      postType: 'text',
      content: 'After a refresh',
    });
    const post = await waitPublished(((await created.json()) as { id: string }).id);
    expect(post).toMatchObject({ status: 'published' });
    const sessions = bluesky.control.sessions();
    expect(sessions.length).toBe(sessionsBefore + 1);
    // The old refresh token is spent; a second publish uses the new session without refreshing again.
    expect(sessions[sessionsBefore - 1]?.refreshUsed).toBe(true);
    const again = await postsClient(host, tenant).create({
      platform: 'bluesky',
      accountId,
      status: 'publish',
      postType: 'text',
      content: 'With the new session',
    });
    expect(await waitPublished(((await again.json()) as { id: string }).id)).toMatchObject({
      status: 'published',
    });
    expect(bluesky.control.sessions().length).toBe(sessionsBefore + 1);
  });

  it('serves our client metadata document and its public key set, without an API key; 404 for other networks', async () => {
    const document = await host.call('/v1/oauth/bluesky/client-metadata.json');
    expect(document.status).toBe(200);
    const metadata = (await document.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      client_id: CLIENT_ID,
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      dpop_bound_access_tokens: true,
      scope: 'atproto transition:generic',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(String((metadata.redirect_uris as string[])[0])).toMatch(/\/v1\/oauth\/bluesky\/callback$/);
    expect(String(metadata.jwks_uri)).toMatch(/\/v1\/oauth\/bluesky\/jwks\.json$/);
    const jwks = (await (await host.call('/v1/oauth/bluesky/jwks.json')).json()) as {
      keys: Record<string, unknown>[];
    };
    const secret = JSON.parse(bluesky.clientSecret) as Record<string, string>;
    expect(jwks.keys).toEqual([
      { kty: 'EC', crv: 'P-256', x: secret.x, y: secret.y, kid: secret.kid, use: 'sig', alg: 'ES256' },
    ]);
    expect(JSON.stringify(jwks)).not.toContain(String(secret.d));
    expect((await host.call('/v1/oauth/twitter/client-metadata.json')).status).toBe(404);
  });
});
