import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_INSTAGRAM_DEFAULT_USER,
  graphError,
  type InstagramFake,
  startInstagramFake,
} from '../../infra/fake-networks/instagram/index.js';
import { newId } from '../../shared/domain/ids.js';
import { mediaObjectKey } from '../../shared/domain/media.js';
import type { Post } from '../../shared/domain/posts.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import { openTokens, sealTokens } from '../../shared/services/accounts/token-vault.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { connectAtFake } from './support/connect.js';

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
    const accountId = await connectAtFake(host, tenant, 'instagram', BACK, instagram.authorizeUrl);
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
    // The account read shows Instagram's own count as the worker last read it, before the publish.
    expect(account.usage).not.toHaveProperty('network');
    const after = (await (
      await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, { apiKey: tenant.apiKey })
    ).json()) as { usage: { network?: { readAt: string } } };
    expect(after.usage.network).toMatchObject({ used: 0, limit: 50, windowSeconds: 86_400 });
    expect(Date.parse(String(after.usage.network?.readAt))).toBeLessThanOrEqual(Date.now());
  });

  /** An account as a connect would leave it, holding a long-lived token the fake issued `ageMs` ago. */
  let nextUser = 0;
  const accountWithToken = async (ageMs: number) => {
    nextUser += 1;
    const user = {
      userId: `1784140000000010${nextUser}`,
      username: `photographer_${nextUser}`,
      name: `Photographer ${nextUser}`,
    };
    instagram.control.addUser(user);
    const token = instagram.control.issueToken(user.userId, { ageMs });
    const expiresAt = new Date(
      instagram.control.tokens().find((t) => t.token === token)?.expiresAt ?? 0,
    ).toISOString();
    const owner = { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, accountId: newId('account') };
    const now = new Date().toISOString();
    await host.deps.tenancy.putAccount({
      ...owner,
      platform: 'instagram',
      displayName: user.name,
      handle: `@${user.username}`,
      status: 'connected',
      sandbox: false,
      connectedAt: now,
      createdAt: now,
      networkUserId: user.userId,
      scopes: ['instagram_business_basic', 'instagram_business_content_publish'],
      tokenExpiresAt: expiresAt,
      refreshExpiresAt: expiresAt,
      refreshable: true,
      encryptedTokens: await sealTokens(host.deps.secrets, owner, {
        accessToken: token,
        refreshToken: token,
        expiresAt,
        refreshExpiresAt: expiresAt,
        scopes: ['instagram_business_basic', 'instagram_business_content_publish'],
      }),
      tokensVersion: 1,
    });
    return { owner, token };
  };

  const publishImage = async (accountId: string, content: string) => {
    const mediaId = newId('media');
    const objectKey = mediaObjectKey(tenant.tenantId, tenant.workspaceId, mediaId);
    await host.deps.storage.put(objectKey, JPEG, 'image/jpeg');
    await host.deps.media.put({
      mediaId,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      filename: 'photo.jpg',
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
      content,
      media: [{ id: mediaId }],
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    return eventually(
      async () => {
        const post = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
        return post.status === 'published' || post.status === 'failed' ? post : undefined;
      },
      { timeoutMs: 20_000, what: 'the Instagram post to settle' },
    );
  };

  const refreshCalls = () =>
    instagram.control.requests().filter((request) => request.endpoint === 'refresh_access_token').length;

  it('a token refused (190) that is over 24 hours old is refreshed once with itself, stored, and the post goes out', async () => {
    const { owner, token } = await accountWithToken(3 * 24 * 3600 * 1000);
    instagram.control.failNext('media.create', {
      kind: 'reply',
      reply: graphError(190, 'Error validating access token: Session has expired.', { subcode: 463 }),
    });
    const refreshesBefore = refreshCalls();

    const post = await publishImage(owner.accountId, 'After a refresh');

    expect(post.status).toBe('published');
    expect(refreshCalls()).toBe(refreshesBefore + 1);
    const account = await host.deps.tenancy.getAccount(owner.tenantId, owner.workspaceId, owner.accountId);
    const stored = await openTokens(host.deps.secrets, owner, String(account?.encryptedTokens));
    expect(stored.accessToken).not.toBe(token);
    expect(stored.refreshToken).toBe(stored.accessToken);
    expect(instagram.control.tokens().find((t) => t.token === stored.accessToken)?.kind).toBe('long');
  });

  it('a token revoked within its first 24 hours is not refreshed (Meta would refuse): the post fails and the account is disconnected', async () => {
    const { owner, token } = await accountWithToken(60 * 1000);
    instagram.control.revokeToken(token);
    const refreshesBefore = refreshCalls();

    const post = await publishImage(owner.accountId, 'With a revoked token');

    expect(post.status).toBe('failed');
    expect(refreshCalls()).toBe(refreshesBefore);
    const account = await host.deps.tenancy.getAccount(owner.tenantId, owner.workspaceId, owner.accountId);
    expect(account?.status).toBe('disconnected');
  });
});
