import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_THREADS_DEFAULT_USER,
  graphError,
  startThreadsFake,
  type ThreadsFake,
} from '../../infra/fake-networks/threads/index.js';
import { newId } from '../../shared/domain/ids.js';
import type { Post } from '../../shared/domain/posts.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import { openTokens, sealTokens } from '../../shared/services/accounts/token-vault.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { connectAtFake } from './support/connect.js';
import { publishUntilSettled } from './support/settled-post.js';
import { SMALL_JPEG as JPEG, uploadedMedia } from './support/uploaded-media.js';

const BACK = 'https://app.example.com/connected';

/**
 * Threads end to end: an account connected through the fake's consent page and our callback
 * (short-lived token exchanged for a 60-day one), then each post type delivered by the worker to
 * the fake: a text post with its link card, an image Threads fetches from a presigned GET of the
 * media bucket (s3rver on loopback), a carousel, a video and a thread as a reply chain.
 */
describe('connecting a Threads account and publishing every post type through the fake', () => {
  let threads: ThreadsFake;
  let host: TestHost;
  let tenant: BootstrapResult;
  let accountId = '';

  beforeAll(async () => {
    // Containers are ready at the first check: a pending answer would wait Meta's 30–60 s
    // (the pending path is the integration tests' own: test/integration/networks/threads/).
    threads = await startThreadsFake({ processingPolls: { VIDEO: 0 } });
    const env = {
      THREADS_GRAPH_URL: threads.graphUrl,
      THREADS_AUTHORIZE_URL: threads.authorizeUrl,
      THREADS_CLIENT_ID: threads.clientId,
      THREADS_CLIENT_SECRET: threads.clientSecret,
    };
    host = await startTestHost({
      networkEndpoints: loadNetworkEndpoints(env),
      appCredentials: envAppCredentials(env),
      delivery: { tokenRefreshIntervalMs: false, sandboxLatencyMs: { min: 0, max: 0 } },
    });
    tenant = await host.admin.bootstrap({ name: 'Threads' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [BACK] });
  });
  afterAll(async () => {
    await host?.stop();
    await threads?.stop();
  });

  const uploaded = (bytes: Buffer, mimeType: string, filename: string): Promise<string> =>
    uploadedMedia(host, tenant, { bytes, mimeType, filename });

  const publish = (body: Record<string, unknown>): Promise<Post> =>
    publishUntilSettled(
      host,
      tenant,
      { platform: 'threads', accountId, ...body },
      'the Threads post to settle',
    );

  it('consent → account with a 60-day token; the account read shows the handle', async () => {
    accountId = await connectAtFake(host, tenant, 'threads', BACK, threads.authorizeUrl);
    const read = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
      apiKey: tenant.apiKey,
    });
    const account = (await read.json()) as Record<string, unknown>;
    expect(account).toMatchObject({
      platform: 'threads',
      status: 'connected',
      networkUserId: FAKE_THREADS_DEFAULT_USER.userId,
      handle: `@${FAKE_THREADS_DEFAULT_USER.username}`,
    });
    expect(Date.parse(String(account.tokenExpiresAt))).toBeGreaterThan(Date.now() + 59 * 24 * 3600 * 1000);
  });

  it('a text post with its link card and reply control is published, and the account read shows Threads’ own count', async () => {
    const post = await publish({
      postType: 'text',
      content: 'Notes from the week',
      platformOptions: {
        threads: { linkAttachment: 'https://example.com/notes', replyControl: 'accounts_you_follow' },
      },
    });
    expect(post.status).toBe('published');
    const published = threads.control.posts().find((p) => p.id === post.platformPostId);
    expect(published).toMatchObject({
      mediaType: 'TEXT_POST',
      linkAttachment: 'https://example.com/notes',
      replyControl: 'accounts_you_follow',
    });
    expect(post.platformPostUrl).toBe(published?.permalink);
    const read = (await (
      await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, { apiKey: tenant.apiKey })
    ).json()) as { usage: { network?: Record<string, unknown> } };
    expect(read.usage.network).toMatchObject({ used: 0, limit: 250, windowSeconds: 86_400 });
  });

  it('an image with alt text is fetched by Threads from a 15-minute presigned URL and published', async () => {
    const mediaId = await uploaded(JPEG, 'image/jpeg', 'harbour.jpg');
    const post = await publish({
      postType: 'image',
      content: 'The harbour',
      media: [{ id: mediaId, alt: 'Boats' }],
    });
    expect(post.status).toBe('published');
    const container = threads.control.containers().find((c) => c.type === 'IMAGE' && !c.isCarouselItem);
    expect(container?.fetched).toEqual({ contentType: 'image/jpeg', bytes: JPEG.length });
    expect(container?.params).toMatchObject({ text: 'The harbour', alt_text: 'Boats' });
    const url = new URL(String(container?.params.image_url));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
  });

  it('a carousel of two images, a video and a thread of three replies are published', async () => {
    const first = await uploaded(JPEG, 'image/jpeg', 'a.jpg');
    const second = await uploaded(JPEG, 'image/jpeg', 'b.jpg');
    const carousel = await publish({
      postType: 'carousel',
      content: 'Two views',
      media: [{ id: first }, { id: second }],
    });
    expect(carousel.status).toBe('published');
    expect(threads.control.posts().find((p) => p.id === carousel.platformPostId)?.mediaType).toBe(
      'CAROUSEL_ALBUM',
    );

    const clip = await uploaded(Buffer.alloc(4096, 3), 'video/mp4', 'clip.mp4');
    const video = await publish({ postType: 'video', content: 'A clip', media: [{ id: clip }] });
    expect(video.status).toBe('published');

    const thread = await publish({
      postType: 'thread',
      content: [{ text: 'One' }, { text: 'Two' }, { text: 'Three' }],
    });
    expect(thread.status).toBe('published');
    const chain = threads.control.posts().slice(-3);
    expect(chain.map((p) => p.text)).toEqual(['One', 'Two', 'Three']);
    expect(chain[0]?.id).toBe(thread.platformPostId);
    expect(chain[1]?.repliedTo).toBe(chain[0]?.id);
    expect(chain[2]?.repliedTo).toBe(chain[1]?.id);
  });

  /** An account as a connect would leave it, holding a long-lived token the fake issued `ageMs` ago. */
  const accountWithToken = async (ageMs: number, suffix: string) => {
    const user = {
      userId: `2600000000000010${suffix}`,
      username: `threader_${suffix}`,
      name: `Threader ${suffix}`,
    };
    threads.control.addUser(user);
    const token = threads.control.issueToken(user.userId, { ageMs });
    const expiresAt = new Date(
      threads.control.tokens().find((t) => t.token === token)?.expiresAt ?? 0,
    ).toISOString();
    const owner = { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, accountId: newId('account') };
    const now = new Date().toISOString();
    const scopes = [
      'threads_basic',
      'threads_content_publish',
      'threads_manage_replies',
      'threads_read_replies',
    ];
    await host.deps.tenancy.putAccount({
      ...owner,
      platform: 'threads',
      displayName: user.name,
      handle: `@${user.username}`,
      status: 'connected',
      sandbox: false,
      connectedAt: now,
      createdAt: now,
      networkUserId: user.userId,
      scopes,
      tokenExpiresAt: expiresAt,
      refreshExpiresAt: expiresAt,
      refreshable: true,
      encryptedTokens: await sealTokens(host.deps.secrets, owner, {
        accessToken: token,
        refreshToken: token,
        expiresAt,
        refreshExpiresAt: expiresAt,
        scopes,
      }),
      tokensVersion: 1,
    });
    return { owner, token };
  };

  const refreshCalls = () =>
    threads.control.requests().filter((r) => r.endpoint === 'refresh_access_token').length;

  it('a token refused (190) that is over 24 hours old is refreshed once with th_refresh_token, stored, and the post goes out', async () => {
    const { owner, token } = await accountWithToken(3 * 24 * 3600 * 1000, '1');
    threads.control.failNext('threads.create', {
      kind: 'reply',
      reply: graphError(190, 'Error validating access token: Session has expired.', { subcode: 463 }),
    });
    const before = refreshCalls();
    accountId = owner.accountId;

    const post = await publish({ postType: 'text', content: 'After a refresh' });

    expect(post.status).toBe('published');
    expect(refreshCalls()).toBe(before + 1);
    const account = await host.deps.tenancy.getAccount(owner.tenantId, owner.workspaceId, owner.accountId);
    const stored = await openTokens(host.deps.secrets, owner, String(account?.encryptedTokens));
    expect(stored.accessToken).not.toBe(token);
    expect(stored.refreshToken).toBe(stored.accessToken);
    expect(threads.control.tokens().find((t) => t.token === stored.accessToken)?.kind).toBe('long');
  });

  it('a token revoked within its first 24 hours is not refreshed (Meta would refuse): the post fails, the account is disconnected', async () => {
    const { owner, token } = await accountWithToken(60 * 1000, '2');
    threads.control.revokeToken(token);
    const before = refreshCalls();
    accountId = owner.accountId;

    const post = await publish({ postType: 'text', content: 'With a revoked token' });

    expect(post.status).toBe('failed');
    expect(refreshCalls()).toBe(before);
    const account = await host.deps.tenancy.getAccount(owner.tenantId, owner.workspaceId, owner.accountId);
    expect(account?.status).toBe('disconnected');
  });
});
