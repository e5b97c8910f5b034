import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_FACEBOOK_DEFAULT_USER,
  type FacebookFake,
  startFacebookFake,
} from '../../infra/fake-networks/facebook/index.js';
import type { Post } from '../../shared/domain/posts.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import { openTokens } from '../../shared/services/accounts/token-vault.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { movieFile } from '../support/video-files.js';
import { connectAtFake } from './support/connect.js';
import { publishUntilSettled } from './support/settled-post.js';
import { SMALL_JPEG as JPEG, uploadedMedia } from './support/uploaded-media.js';

const BACK = 'https://app.example.com/connected';
const [BAKERY, EVENTS] = FAKE_FACEBOOK_DEFAULT_USER.pages;

/**
 * Facebook Pages end to end: one consent through the fake's Login dialog and our callback stores
 * one account per Page the person may create content on (each with its own Page token), then each
 * post type is delivered by the worker to the fake: a text post with its link preview, a photo
 * Meta fetches from a presigned GET of the media bucket (s3rver on loopback), a multi-photo post,
 * a feed video and a reel.
 */
describe('connecting Facebook Pages and publishing every post type through the fake', () => {
  let facebook: FacebookFake;
  let host: TestHost;
  let tenant: BootstrapResult;
  let accountId = '';

  beforeAll(async () => {
    // Videos are ready at the first status read: a pending answer would wait 30 s (the pending
    // path is the integration tests' own: test/integration/networks/facebook/).
    facebook = await startFacebookFake({ processingPolls: { video: 0, reel: 0 } });
    const env = {
      FACEBOOK_GRAPH_URL: facebook.graphUrl,
      FACEBOOK_AUTHORIZE_URL: facebook.authorizeUrl,
      FACEBOOK_GRAPH_VIDEO_URL: facebook.graphVideoUrl,
      FACEBOOK_RUPLOAD_URL: facebook.ruploadUrl,
      FACEBOOK_CLIENT_ID: facebook.clientId,
      FACEBOOK_CLIENT_SECRET: facebook.clientSecret,
    };
    host = await startTestHost({
      networkEndpoints: loadNetworkEndpoints(env),
      appCredentials: envAppCredentials(env),
      delivery: { tokenRefreshIntervalMs: false, sandboxLatencyMs: { min: 0, max: 0 } },
    });
    tenant = await host.admin.bootstrap({ name: 'Bakery' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [BACK] });
  });
  afterAll(async () => {
    await host?.stop();
    await facebook?.stop();
  });

  const uploaded = (
    bytes: Buffer,
    mimeType: string,
    filename: string,
    durationSeconds?: number,
  ): Promise<string> =>
    uploadedMedia(host, tenant, {
      bytes,
      mimeType,
      filename,
      ...(durationSeconds !== undefined && { durationSeconds }),
    });

  const publish = (body: Record<string, unknown>): Promise<Post> =>
    publishUntilSettled(
      host,
      tenant,
      { platform: 'facebook', accountId, ...body },
      'the Facebook post to settle',
    );

  it('one consent → one account per Page the person may post on, each with its own Page token, no expiry', async () => {
    accountId = await connectAtFake(host, tenant, 'facebook', BACK, facebook.authorizeUrl);

    const list = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts?platform=facebook`, {
      apiKey: tenant.apiKey,
    });
    const { data } = (await list.json()) as { data: Record<string, unknown>[] };
    const pages = data.filter((account) => !account.sandbox);
    // The Fan Club (MODERATE only) is left out: no account for a Page it cannot publish to.
    expect(pages.map((account) => account.networkUserId).sort()).toEqual(
      [BAKERY?.pageId, EVENTS?.pageId].sort(),
    );
    const bakery = pages.find((account) => account.networkUserId === BAKERY?.pageId);
    expect(bakery).toMatchObject({
      id: accountId,
      handle: '@fakebakery',
      displayName: 'Fake Bakery',
      status: 'connected',
    });
    expect(bakery).not.toHaveProperty('tokenExpiresAt');
    const stored = await host.deps.tenancy.getAccount(tenant.tenantId, tenant.workspaceId, accountId);
    const tokens = await openTokens(
      host.deps.secrets,
      { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, accountId },
      String(stored?.encryptedTokens),
    );
    expect(tokens.refreshToken).toBeUndefined();
  });

  it('a text post with a link preview, and a photo with alt text fetched from a presigned URL', async () => {
    const text = await publish({
      postType: 'text',
      content: 'This week’s specials',
      platformOptions: { facebook: { link: 'https://bakery.example/specials' } },
    });
    expect(text.status).toBe('published');
    const linkPost = facebook.control.posts().find((post) => post.id === text.platformPostId);
    expect(linkPost).toMatchObject({
      kind: 'link',
      pageId: BAKERY?.pageId,
      link: 'https://bakery.example/specials',
    });
    expect(text.platformPostUrl).toMatch(/^https:\/\/www\.facebook\.com\/104000000000001\/posts\/\d+$/);

    const photoId = await uploaded(JPEG, 'image/jpeg', 'loaf.jpg');
    const photo = await publish({
      postType: 'image',
      content: 'Rye',
      media: [{ id: photoId, alt: 'A rye loaf' }],
    });
    expect(photo.status).toBe('published');
    const made = facebook.control.photos().at(-1);
    expect(made).toMatchObject({
      published: true,
      altText: 'A rye loaf',
      fetched: { contentType: 'image/jpeg' },
    });
    expect(new URL(String(made?.url)).searchParams.get('X-Amz-Expires')).toBe('1800');
  });

  it('a multi-photo post, a feed video and a reel are published', async () => {
    const first = await uploaded(JPEG, 'image/jpeg', 'a.jpg');
    const second = await uploaded(JPEG, 'image/jpeg', 'b.jpg');
    const multi = await publish({
      postType: 'carousel',
      content: 'Two loaves',
      media: [
        { id: first, alt: 'One' },
        { id: second, alt: 'Two' },
      ],
    });
    expect(multi.status).toBe('published');
    const post = facebook.control.posts().find((candidate) => candidate.id === multi.platformPostId);
    expect(post?.kind).toBe('photos');
    expect(post?.photoIds).toHaveLength(2);

    const clip = await uploaded(movieFile({ durationSeconds: 20 }), 'video/mp4', 'clip.mp4', 20);
    const video = await publish({
      postType: 'video',
      content: 'Shaping baguettes',
      media: [{ id: clip }],
      platformOptions: { facebook: { title: 'Baguettes' } },
    });
    expect(video.status).toBe('published');
    expect(facebook.control.videos().find((v) => v.id === video.platformPostId)).toMatchObject({
      kind: 'video',
      title: 'Baguettes',
      publishing: 'complete',
    });

    const reelFile = movieFile({ durationSeconds: 12, width: 1080, height: 1920 });
    const reelId = await uploaded(reelFile, 'video/mp4', 'reel.mp4', 12);
    const reel = await publish({ postType: 'reel', content: 'Morning bake', media: [{ id: reelId }] });
    expect(reel.status).toBe('published');
    expect(reel.platformPostUrl).toBe(`https://www.facebook.com/reel/${reel.platformPostId}`);
    expect(facebook.control.videos().filter((v) => v.kind === 'reel')).toHaveLength(1);
  });

  it('a Page token Meta refuses (the person changed password, 190/460): no refresh exists, the post fails and the Page must be reconnected', async () => {
    facebook.control.revokeTokensOf(FAKE_FACEBOOK_DEFAULT_USER.userId);

    const post = await publish({ postType: 'text', content: 'After the password change' });

    expect(post.status).toBe('failed');
    expect(post.platformPostId).toBeUndefined();
    const account = await host.deps.tenancy.getAccount(tenant.tenantId, tenant.workspaceId, accountId);
    expect(account?.status).toBe('disconnected');
    expect(facebook.control.seen().filter((seen) => seen.endpoint === 'token')).toHaveLength(2);
  });
});
