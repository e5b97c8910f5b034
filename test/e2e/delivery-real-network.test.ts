import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { mediaObjectKey } from '../../shared/domain/media.js';
import type { Platform } from '../../shared/domain/platforms.js';
import type { Post } from '../../shared/domain/posts.js';
import type { Network } from '../../shared/networks/network.js';
import type {
  AccountMetricsAnswer,
  Connector,
  PublishOutcome,
  PublishRequest,
} from '../../shared/ports/connector.js';
import type { TokenSet } from '../../shared/ports/network-oauth.js';
import { openTokens, sealTokens } from '../../shared/services/accounts/token-vault.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { FakeOAuthProvider } from '../unit/support/fake-oauth-provider.js';

const VIDEO = Buffer.from(Array.from({ length: 256 * 1024 + 3 }, (_, i) => (i * 31) % 256));
const MINUTE = 60_000;

/**
 * A test-only network, passed to the host through its `networks` option: a video is uploaded in
 * chunks read from the media bucket, then "processed" (one pending answer) before it is published;
 * every request is kept for the test to read.
 */
class ProcessingNetwork implements Connector {
  readonly requests: PublishRequest[] = [];
  readonly uploaded = new Map<string, Buffer>();
  /** The accounts whose own numbers were read, by network user id. */
  readonly accountReads: string[] = [];

  async readAccountMetrics(request: { account: { networkUserId?: string } }): Promise<AccountMetricsAnswer> {
    this.accountReads.push(request.account.networkUserId ?? '');
    return { kind: 'metrics', metrics: { followers: 42, posts: 3 } };
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    this.requests.push(request);
    if (request.progress?.mediaId) {
      return {
        kind: 'published',
        platformPostId: `net-${request.post.postId}`,
        platformPostUrl: `https://network.example/${request.post.postId}`,
      };
    }
    const stored = request.media[0]?.stored;
    if (!stored?.objectKey || !request.bytes) throw new Error('no stored media to upload');
    const chunks: Uint8Array[] = [];
    for (let start = 0; start < stored.sizeBytes; start += 64 * 1024) {
      const end = Math.min(stored.sizeBytes, start + 64 * 1024);
      chunks.push(await request.bytes.readRange(stored.objectKey, start, end, request.signal));
    }
    this.uploaded.set(request.post.postId, Buffer.concat(chunks));
    return { kind: 'pending', progress: { mediaId: 'm-1' }, checkAfterSeconds: 1, stage: 'media_processing' };
  }
}

describe('delivery to a real network on the local host (a test network, its OAuth faked)', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;
  const connector = new ProcessingNetwork();
  const oauth = new FakeOAuthProvider({ now: () => Date.now() });
  const networks = new Map<Platform, Network>([
    ['twitter', { platform: 'twitter', app: 'X', oauth, connector }],
  ]);

  /** A connected real twitter account in the tenant's workspace, holding `tokens`, sealed. */
  const connectAccount = async (tokens: TokenSet) => {
    const owner = { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, accountId: newId('account') };
    const now = new Date().toISOString();
    await host.deps.tenancy.putAccount({
      ...owner,
      platform: 'twitter',
      displayName: 'Acme',
      handle: '@acme',
      status: 'connected',
      sandbox: false,
      connectedAt: now,
      createdAt: now,
      networkUserId: owner.accountId,
      scopes: tokens.scopes,
      ...(tokens.expiresAt && { tokenExpiresAt: tokens.expiresAt }),
      encryptedTokens: await sealTokens(host.deps.secrets, owner, tokens),
      tokensVersion: 1,
    });
    return owner;
  };
  const account = (owner: { accountId: string }) =>
    host.deps.tenancy.getAccount(tenant.tenantId, tenant.workspaceId, owner.accountId);
  const storedTokens = async (owner: { tenantId: string; workspaceId: string; accountId: string }) =>
    openTokens(host.deps.secrets, owner, (await account(owner))?.encryptedTokens ?? '');

  beforeAll(async () => {
    host = await startTestHost({
      delivery: {
        networks,
        tokenRefreshIntervalMs: false,
        sandboxLatencyMs: { min: 0, max: 0 },
        leaseMs: 2000,
        connectorTimeoutMs: 3000,
        lookupTimeoutMs: 1000,
      },
    });
    tenant = await host.admin.bootstrap({ name: 'Real network' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('refreshes an expiring token, uploads the video from the bucket, and publishes after the network’s processing', async () => {
    // Prepare: an account whose token expires in two minutes, and a stored video.
    const granted = oauth.grant({ expiresAt: new Date(Date.now() + 2 * MINUTE).toISOString() });
    const owner = await connectAccount(granted);
    const mediaId = newId('media');
    const objectKey = mediaObjectKey(tenant.tenantId, tenant.workspaceId, mediaId);
    await host.deps.storage.put(objectKey, VIDEO, 'video/mp4');
    await host.deps.media.put({
      mediaId,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      filename: 'clip.mp4',
      mimeType: 'video/mp4',
      sizeBytes: VIDEO.length,
      status: 'uploaded',
      objectKey,
      createdAt: new Date().toISOString(),
      uploadedAt: new Date().toISOString(),
    });

    // Act
    const created = await posts.create({
      platform: 'twitter',
      accountId: owner.accountId,
      status: 'publish',
      postType: 'video',
      content: 'A clip',
      media: [{ id: mediaId }],
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    // Assess: waiting for the processing shows as queued, then the post is published.
    const waiting = await eventually(
      async () => {
        const post = await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id);
        return post?.delivery?.pending ? post : undefined;
      },
      { timeoutMs: 10_000, what: 'the post to wait for the network' },
    );
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
    const body = (await (await posts.get(id)).json()) as Record<string, unknown>;
    expect(Object.keys(body)).not.toContain('delivery');
    const published = await eventually(
      async () => {
        const post = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
        return post.status === 'published' ? post : undefined;
      },
      { timeoutMs: 20_000, what: 'the post to be published' },
    );
    expect(published).toMatchObject({ attempts: 1, platformPostId: `net-${id}` });
    expect(published.delivery?.progress).toBeUndefined();

    const mine = connector.requests.filter((request) => request.post.postId === id);
    expect(mine.map((request) => request.progress)).toEqual([undefined, { mediaId: 'm-1' }]);
    expect(connector.uploaded.get(id)?.equals(VIDEO)).toBe(true);
    // The token was renewed before the first call, and the rotated pair stored.
    const fresh = await storedTokens(owner);
    expect(fresh.accessToken).not.toBe(granted.accessToken);
    expect(fresh.refreshToken).not.toBe(granted.refreshToken);
    expect(mine.map((request) => request.credentials?.accessToken)).toEqual([
      fresh.accessToken,
      fresh.accessToken,
    ]);
    expect(JSON.stringify(host.logs)).not.toContain(fresh.accessToken);
  });

  it('the sweep disconnects an account whose refresh is refused, and account.disconnected is emitted', async () => {
    // Prepare: a token that expires in three days, whose grant the user revoked at the network.
    const revoked = oauth.grant({ expiresAt: new Date(Date.now() + 3 * 24 * 60 * MINUTE).toISOString() });
    const owner = await connectAccount(revoked);
    await oauth.revoke(revoked);
    const renewed = await connectAccount(
      oauth.grant({ expiresAt: new Date(Date.now() + 2 * 24 * 60 * MINUTE).toISOString() }),
    );
    const delivery = host.delivery;
    if (!delivery) throw new Error('delivery is off');

    // Act
    const report = await delivery.refreshTokensNow();

    // Assess
    expect(report).toMatchObject({ disconnected: 1, failed: 0 });
    expect(await account(owner)).toMatchObject({
      status: 'disconnected',
      disconnectReason: 'refresh_refused',
    });
    expect((await account(renewed))?.tokensVersion).toBe(2);
    const event = await eventually(
      async () =>
        delivery
          .events()
          .find(
            (candidate) =>
              candidate.type === 'account.disconnected' && candidate.data.accountId === owner.accountId,
          ),
      { timeoutMs: 10_000, what: 'account.disconnected' },
    );
    expect(event.data).toMatchObject({ platform: 'twitter', reason: 'refresh_refused' });
  });
  it("the local host's daily sweep takes a connected account's metrics reading, which the API answers", async () => {
    // Prepare: a workspace that collects X's metrics (off by default: X bills each read), an account whose token lasts a month.
    await host.admin.setMetricsCollection({
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      platforms: ['twitter'],
    });
    const owner = await connectAccount(
      oauth.grant({ expiresAt: new Date(Date.now() + 30 * 24 * 60 * MINUTE).toISOString() }),
    );
    const delivery = host.delivery;
    if (!delivery) throw new Error('delivery is off');

    // Act
    const report = await delivery.refreshTokensNow();

    // Assess
    expect(connector.accountReads).toContain(owner.accountId);
    expect(report.accountMetrics?.read).toBeGreaterThanOrEqual(1);
    const answer = await host.call(
      `/v1/workspaces/${tenant.workspaceId}/accounts/${owner.accountId}/metrics`,
      { apiKey: tenant.apiKey },
    );
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ metrics: { followers: 42, posts: 3 } });
  });
});
