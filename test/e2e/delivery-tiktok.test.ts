import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_TIKTOK_DEFAULT_CREATOR,
  startTikTokFake,
  type TikTokFake,
} from '../../infra/fake-networks/tiktok/index.js';
import { newId } from '../../shared/domain/ids.js';
import { mediaObjectKey } from '../../shared/domain/media.js';
import type { Post } from '../../shared/domain/posts.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { eventually } from '../support/eventually.js';
import { postsClient } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { connectThroughConsent } from './support/connect.js';

const BACK = 'https://app.example.com/connected';
const VIDEO = Buffer.from(Array.from({ length: 300 * 1024 }, (_, i) => (i * 31 + 7) % 251));

/**
 * A TikTok video through the whole service: a creator connected through the fake's consent page,
 * a stored video, creator_info, the init, the chunk read from the bucket, the status, published
 * once (the pending polls are the integration tests'). And a post without a privacy level, refused
 * at create.
 */
describe('publishing a video to TikTok through the worker, against the fake', () => {
  let tiktok: TikTokFake;
  let host: TestHost;
  let tenant: BootstrapResult;
  let accountId: string;

  beforeAll(async () => {
    tiktok = await startTikTokFake({ settings: { processingPolls: 0 } });
    const env = {
      TIKTOK_API_URL: tiktok.apiUrl,
      TIKTOK_AUTHORIZE_URL: tiktok.authorizeUrl,
      TIKTOK_CLIENT_ID: tiktok.clientId,
      TIKTOK_CLIENT_SECRET: tiktok.clientSecret,
    };
    host = await startTestHost({
      networkEndpoints: loadNetworkEndpoints(env),
      appCredentials: envAppCredentials(env),
      delivery: { tokenRefreshIntervalMs: false, sandboxLatencyMs: { min: 0, max: 0 } },
    });
    tenant = await host.admin.bootstrap({ name: 'Short videos' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [BACK] });
    accountId = await connectThroughConsent(host, tenant, 'tiktok', BACK);
  });
  afterAll(async () => {
    await host?.stop();
    await tiktok?.stop();
  });

  const storeVideo = async (): Promise<string> => {
    const mediaId = newId('media');
    const objectKey = mediaObjectKey(tenant.tenantId, tenant.workspaceId, mediaId);
    await host.deps.storage.put(objectKey, VIDEO, 'video/mp4');
    await host.deps.media.put({
      mediaId,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      filename: 'dance.mp4',
      mimeType: 'video/mp4',
      sizeBytes: VIDEO.length,
      status: 'uploaded',
      objectKey,
      createdAt: new Date().toISOString(),
      uploadedAt: new Date().toISOString(),
    });
    return mediaId;
  };

  it('publishes one video: creator_info, init, the chunk from the bucket, the status', async () => {
    const mediaId = await storeVideo();
    const created = await postsClient(host, tenant).create({
      platform: 'tiktok',
      accountId,
      status: 'publish',
      postType: 'video',
      content: 'Dance #fyp',
      media: [{ id: mediaId }],
      platformOptions: { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE', disableDuet: true } },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const settled = await eventually(
      async () => {
        const post = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
        return post.status === 'published' || post.status === 'failed' ? post : undefined;
      },
      { timeoutMs: 30_000, what: 'the post to be published' },
    );
    const [publish] = tiktok.control.publishes();
    expect(settled).toMatchObject({
      status: 'published',
      platformPostId: publish?.postId,
      platformPostUrl: `https://www.tiktok.com/@${FAKE_TIKTOK_DEFAULT_CREATOR.username}/video/${publish?.postId}`,
    });
    expect(tiktok.control.publishes()).toHaveLength(1);
    expect(publish?.postInfo).toMatchObject({
      title: 'Dance #fyp',
      privacy_level: 'PUBLIC_TO_EVERYONE',
      disable_duet: true,
    });
    expect(Buffer.concat(publish?.bytes ?? [])).toEqual(VIDEO);
  });

  it('refreshes a token TikTok refuses, keeps the rotated refresh token, and publishes', async () => {
    for (const token of tiktok.control.accessTokens()) tiktok.control.expireAccessToken(token.token);
    const refreshBefore = tiktok.control.refreshTokens().filter((token) => token.active);
    expect(refreshBefore).toHaveLength(1);
    const mediaId = await storeVideo();
    const created = await postsClient(host, tenant).create({
      platform: 'tiktok',
      accountId,
      status: 'publish',
      postType: 'video',
      content: 'After a refresh',
      media: [{ id: mediaId }],
      platformOptions: { tiktok: { privacyLevel: 'SELF_ONLY' } },
    });
    const { id } = (await created.json()) as { id: string };
    const settled = await eventually(
      async () => {
        const post = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
        return post.status === 'published' || post.status === 'failed' ? post : undefined;
      },
      { timeoutMs: 30_000, what: 'the post to be published' },
    );
    expect(settled.status).toBe('published');
    const active = tiktok.control.refreshTokens().filter((token) => token.active);
    expect(active).toHaveLength(1);
    expect(active[0]?.token).not.toBe(refreshBefore[0]?.token);
  });

  it("sends a post in mode inbox to the creator's inbox: awaiting_creator, its event, its warning, no id, never published", async () => {
    const mediaId = await storeVideo();
    const created = await postsClient(host, tenant).create({
      platform: 'tiktok',
      accountId,
      status: 'publish',
      postType: 'video',
      content: 'Finish me in the app',
      media: [{ id: mediaId }],
      platformOptions: { tiktok: { mode: 'inbox' } },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const settled = await eventually(
      async () => {
        const post = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
        return ['awaiting_creator', 'published', 'failed'].includes(post.status) ? post : undefined;
      },
      { timeoutMs: 30_000, what: "the post to reach the creator's inbox" },
    );
    expect(settled.status).toBe('awaiting_creator');
    expect(settled).not.toHaveProperty('platformPostId');
    expect(settled).not.toHaveProperty('publishedAt');
    const draft = tiktok.control.publishes().find((publish) => publish.mode === 'inbox');
    expect(draft).toMatchObject({ status: 'SEND_TO_USER_INBOX', postInfo: {} });
    expect(Buffer.concat(draft?.bytes ?? [])).toEqual(VIDEO);

    const read = await host.call(`/v1/workspaces/${tenant.workspaceId}/posts/${id}`, {
      apiKey: tenant.apiKey,
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      status: 'awaiting_creator',
      warnings: [{ code: 'TEXT_NOT_SENT_TO_INBOX' }],
    });
    const feed = await eventually(
      async () => {
        const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/events?limit=100`, {
          apiKey: tenant.apiKey,
        });
        const { data } = (await response.json()) as {
          data: { type: string; data: { postId?: string; status?: string } }[];
        };
        const mine = data.filter((event) => event.data.postId === id);
        return mine.some((event) => event.type === 'post.awaiting_creator') ? mine : undefined;
      },
      { timeoutMs: 10_000, what: 'the post.awaiting_creator event' },
    );
    expect(feed.map((event) => event.type)).toEqual(['post.queued', 'post.awaiting_creator']);
    expect(feed[1]?.data).toMatchObject({ status: 'awaiting_creator' });
  });

  it('refuses privacy settings on an inbox post at create: 422 PLATFORM_OPTION_NOT_ALLOWED naming the field', async () => {
    const mediaId = await storeVideo();
    const created = await postsClient(host, tenant).create({
      platform: 'tiktok',
      accountId,
      status: 'publish',
      postType: 'video',
      content: 'Draft with settings',
      media: [{ id: mediaId }],
      platformOptions: { tiktok: { mode: 'inbox', privacyLevel: 'SELF_ONLY' } },
    });
    const envelope = await expectEnvelope(created, 422, 'VALIDATION_FAILED');
    expect(JSON.stringify(envelope)).toContain('PLATFORM_OPTION_NOT_ALLOWED');
    expect(JSON.stringify(envelope)).toContain('platformOptions.tiktok.privacyLevel');
  });

  it('refuses a TikTok post without a privacy level at create: 422 PRIVACY_LEVEL_REQUIRED', async () => {
    const mediaId = await storeVideo();
    const created = await postsClient(host, tenant).create({
      platform: 'tiktok',
      accountId,
      status: 'publish',
      postType: 'video',
      content: 'No privacy level',
      media: [{ id: mediaId }],
    });
    const envelope = await expectEnvelope(created, 422, 'VALIDATION_FAILED');
    expect(JSON.stringify(envelope)).toContain('PRIVACY_LEVEL_REQUIRED');
    expect(JSON.stringify(envelope)).toContain('platformOptions.tiktok.privacyLevel');
  });
});
