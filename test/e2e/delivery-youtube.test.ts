import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_YOUTUBE_DEFAULT_CHANNEL,
  startYouTubeFake,
  type YouTubeFake,
} from '../../infra/fake-networks/youtube/index.js';
import { newId } from '../../shared/domain/ids.js';
import { mediaObjectKey } from '../../shared/domain/media.js';
import type { Post } from '../../shared/domain/posts.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { connectThroughConsent } from './support/connect.js';

const BACK = 'https://app.example.com/connected';
const VIDEO = Buffer.from(Array.from({ length: 600 * 1024 }, (_, i) => (i * 31 + 7) % 251));

/**
 * A YouTube post through the whole service: a channel connected through the fake's consent page,
 * a stored video, the worker's connector call cut off mid-upload (the fake keeps part of the
 * chunk and drops the connection), `pending`, the post queued again, and the next invocation
 * continuing the same upload session from YouTube's Range to a published video.
 */
describe('publishing a video to YouTube through the worker, against the fake', () => {
  let youTube: YouTubeFake;
  let host: TestHost;
  let tenant: BootstrapResult;

  beforeAll(async () => {
    youTube = await startYouTubeFake({ processingPolls: 0 });
    const env = {
      YOUTUBE_API_URL: youTube.apiUrl,
      YOUTUBE_UPLOAD_URL: youTube.uploadUrl,
      YOUTUBE_ANALYTICS_API_URL: youTube.analyticsUrl,
      GOOGLE_AUTHORIZE_URL: youTube.authorizeUrl,
      GOOGLE_TOKEN_URL: youTube.tokenUrl,
      GOOGLE_CLIENT_ID: youTube.clientId,
      GOOGLE_CLIENT_SECRET: youTube.clientSecret,
    };
    host = await startTestHost({
      networkEndpoints: loadNetworkEndpoints(env),
      appCredentials: envAppCredentials(env),
      delivery: { tokenRefreshIntervalMs: false, sandboxLatencyMs: { min: 0, max: 0 } },
    });
    tenant = await host.admin.bootstrap({ name: 'Videos' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [BACK] });
  });
  afterAll(async () => {
    await host?.stop();
    await youTube?.stop();
  });

  it('resumes an interrupted upload in the next invocation and publishes one video', async () => {
    // Prepare: the channel connected, the video stored.
    const accountId = await connectThroughConsent(host, tenant, 'youtube', BACK);
    const mediaId = newId('media');
    const objectKey = mediaObjectKey(tenant.tenantId, tenant.workspaceId, mediaId);
    await host.deps.storage.put(objectKey, VIDEO, 'video/mp4');
    await host.deps.media.put({
      mediaId,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      filename: 'launch.mp4',
      mimeType: 'video/mp4',
      sizeBytes: VIDEO.length,
      status: 'uploaded',
      objectKey,
      createdAt: new Date().toISOString(),
      uploadedAt: new Date().toISOString(),
    });
    youTube.control.failNext('upload.put', { kind: 'partial', keepBytes: 300 * 1024 });

    // Act
    const created = await postsClient(host, tenant).create({
      platform: 'youtube',
      accountId,
      status: 'publish',
      postType: 'video',
      content: 'Launch day\nEverything about the launch.',
      media: [{ id: mediaId }],
      platformOptions: { youtube: { privacyStatus: 'unlisted', tags: ['launch'] } },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    // Assess
    const published = await eventually(
      async () => {
        const post = (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id)) as Post;
        return post.status === 'published' || post.status === 'failed' ? post : undefined;
      },
      { timeoutMs: 30_000, what: 'the post to be published' },
    );
    const [video] = youTube.control.videos();
    expect(published).toMatchObject({
      status: 'published',
      platformPostId: video?.id,
      platformPostUrl: `https://www.youtube.com/watch?v=${video?.id}`,
    });
    expect(youTube.control.videos()).toHaveLength(1);
    expect(video).toMatchObject({
      channelId: FAKE_YOUTUBE_DEFAULT_CHANNEL.id,
      snippet: { title: 'Launch day', description: 'Everything about the launch.', tags: ['launch'] },
      privacyStatus: 'unlisted',
      size: VIDEO.length,
    });
    const requests = youTube.control.requests();
    expect(requests.filter((request) => request.endpoint === 'upload.session')).toHaveLength(1);
    expect(
      requests.filter((request) => request.endpoint === 'upload.put').map((request) => request.contentRange),
    ).toEqual([
      `bytes 0-${VIDEO.length - 1}/${VIDEO.length}`,
      `bytes */${VIDEO.length}`,
      `bytes ${300 * 1024}-${VIDEO.length - 1}/${VIDEO.length}`,
    ]);
    const account = (await (
      await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, { apiKey: tenant.apiKey })
    ).json()) as { usage: Record<string, unknown> };
    expect(account.usage).toMatchObject({
      used: 1600,
      limit: 10_000,
      unit: 'quota_units',
      project: { used: 1600, limit: 10_000 },
    });
  });
});
