import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstagramFake, startInstagramFake } from '../../infra/fake-networks/instagram/index.js';
import { type LinkedInFake, startLinkedInFake } from '../../infra/fake-networks/linkedin/index.js';
import { startTikTokFake, type TikTokFake } from '../../infra/fake-networks/tiktok/index.js';
import { startXFake, type XFake } from '../../infra/fake-networks/x/index.js';
import { startYouTubeFake, type YouTubeFake } from '../../infra/fake-networks/youtube/index.js';
import { newId } from '../../shared/domain/ids.js';
import { mediaObjectKey } from '../../shared/domain/media.js';
import type { AccountMetricName, PostMetricName } from '../../shared/domain/metrics.js';
import type { Platform } from '../../shared/domain/platforms.js';
import type { Post } from '../../shared/domain/posts.js';
import { networkMetricsOf } from '../../shared/networks/network-metrics.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { connectMcp, type McpSession } from './mcp/support.js';
import { consentAt } from './support/consent.js';

const BACK = 'https://app.example.com/connected';
/** A JPEG-looking file (the magic bytes Instagram's fake checks), small. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4092, 7)]);
/**
 * A video's bytes, as the TikTok and YouTube delivery tests upload them (one chunk each), with the
 * post's label at the end: YouTube's fake refuses the same file twice as a duplicate.
 */
const videoFor = (label: string) =>
  Buffer.concat([
    Buffer.from(Array.from({ length: 300 * 1024 }, (_, i) => (i * 31 + 7) % 251)),
    Buffer.from(label),
  ]);

/**
 * The host's and the fakes' time: the real one, moved on by the test past each first collection.
 * The connectors' OAuth dates a token's expiry by the system clock, so once the moves pass a
 * token's life (YouTube's hour, TikTok's two) the host renews it through the fake before each read,
 * and two collections of one account due together renew at once (a lost race is not a disconnect).
 */
const time = { offsetMs: 0 };
const now = () => Date.now() + time.offsetMs;
const HOUR_MS = 3_600_000;

/** Whether `found` holds every one of `wanted`. */
const containsAll = (found: readonly string[] | undefined, wanted: readonly string[]) =>
  wanted.every((id) => found?.includes(id));

interface Fakes {
  x: XFake;
  linkedIn: LinkedInFake;
  instagram: InstagramFake;
  tiktok: TikTokFake;
  youTube: YouTubeFake;
}

/** What a network's post needs of the test: a stored media of the workspace. */
interface CaseContext {
  storeMedia(bytes: Buffer, mimeType: string, filename: string): Promise<string>;
}

interface NetworkCase {
  platform: Platform;
  /** Extra fields of the connect call (LinkedIn's analytics scopes come with the community app). */
  connect?: Record<string, unknown>;
  /** The post to publish, of a type the network takes. */
  post(context: CaseContext, label: string): Promise<Record<string, unknown>>;
  /** The post's fields the network reports (docs/metrics.md "Field map"). */
  postFields: readonly PostMetricName[];
  /** Those the fake grows with its clock: more than 0 an hour after publishing. */
  growing: readonly PostMetricName[];
  accountFields: readonly AccountMetricName[];
  /** A rule of the network the fake saw kept in the collection's requests, for the posts' ids. */
  requestRule(fakes: Fakes, platformPostIds: readonly string[]): void;
}

const CASES: NetworkCase[] = [
  {
    platform: 'twitter',
    post: async (_, label) => ({ postType: 'text', content: `Counted on X, ${label}` }),
    postFields: ['impressions', 'likes', 'comments', 'shares', 'quotes', 'saves'],
    growing: ['impressions', 'likes'],
    accountFields: ['followers', 'following', 'posts'],
    requestRule({ x }, platformPostIds) {
      // Both posts in one lookup's `ids`, public_metrics named as X names them.
      const lookups = x.control
        .requests()
        .filter((request) => request.endpoint === 'tweets.lookup')
        .map((request) => new URLSearchParams(request.query));
      const both = lookups.find((query) => containsAll(query.get('ids')?.split(','), platformPostIds));
      expect(both?.get('tweet.fields')?.split(',')).toContain('public_metrics');
    },
  },
  {
    platform: 'linkedin',
    connect: { linkedinApp: 'community' },
    post: async (_, label) => ({ postType: 'text', content: `Counted on LinkedIn, ${label}` }),
    postFields: ['impressions', 'reach', 'likes', 'comments', 'shares', 'saves'],
    growing: ['impressions', 'reach'],
    accountFields: ['followers'],
    requestRule({ linkedIn }, [platformPostId]) {
      // A member post: one post and one queryType a request, the lifetime total.
      const reads = linkedIn.control
        .requests()
        .filter((request) => request.path === '/rest/memberCreatorPostAnalytics')
        .map((request) => new URLSearchParams(request.query))
        .filter((query) => query.get('entity')?.includes(String(platformPostId)));
      expect(reads.map((query) => query.get('queryType')).sort()).toEqual(
        expect.arrayContaining(['COMMENT', 'IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'RESHARE']),
      );
      for (const query of reads) expect(query.get('aggregation')).toBe('TOTAL');
    },
  },
  {
    platform: 'instagram',
    post: async ({ storeMedia }, label) => ({
      postType: 'image',
      content: `Counted on Instagram, ${label}`,
      media: [{ id: await storeMedia(JPEG, 'image/jpeg', 'harbour.jpg') }],
    }),
    postFields: ['views', 'reach', 'likes', 'comments', 'shares', 'saves'],
    growing: ['views', 'reach'],
    accountFields: ['followers', 'following', 'posts'],
    requestRule({ instagram }, [platformPostId]) {
      // One media a request (the path names it), its metrics named as Instagram names them.
      const insights = instagram.control
        .requests()
        .filter((request) => request.path.endsWith(`/${platformPostId}/insights`));
      expect(insights.at(-1)?.params.metric?.split(',')).toEqual(
        expect.arrayContaining(['views', 'reach', 'saved']),
      );
    },
  },
  {
    platform: 'tiktok',
    post: async ({ storeMedia }, label) => ({
      postType: 'video',
      content: `Counted on TikTok, ${label}`,
      media: [{ id: await storeMedia(videoFor(label), 'video/mp4', 'dance.mp4') }],
      platformOptions: { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
    }),
    postFields: ['views', 'likes', 'comments', 'shares'],
    growing: ['views', 'likes'],
    accountFields: ['followers', 'following', 'likes', 'posts'],
    requestRule({ tiktok }, platformPostIds) {
      // Both videos in one video/query (their ids sent as strings: above 2^53).
      expect(tiktok.control.videoQueries().some((ids) => containsAll(ids, platformPostIds))).toBe(true);
    },
  },
  {
    platform: 'youtube',
    post: async ({ storeMedia }, label) => ({
      postType: 'video',
      content: `Counted on YouTube, ${label}\nA video whose statistics are read.`,
      media: [{ id: await storeMedia(videoFor(label), 'video/mp4', 'launch.mp4') }],
      platformOptions: { youtube: { privacyStatus: 'public' } },
    }),
    // Not watch time yet: an hour-old video has no row in the Analytics report (its data lag days).
    postFields: ['views', 'likes', 'comments'],
    growing: ['views'],
    accountFields: ['followers', 'views', 'posts'],
    requestRule({ youTube }, platformPostIds) {
      // Both videos in one videos.list's `id`, part=statistics, no maxResults beside `id`.
      const read = youTube.control
        .requests()
        .find(
          (request) =>
            request.endpoint === 'videos.list' &&
            request.query.part === 'statistics' &&
            containsAll(request.query.id?.split(','), platformPostIds),
        );
      expect(read, 'a videos.list of both ids').toBeDefined();
      expect(read?.query).not.toHaveProperty('maxResults');
      // And one Analytics report for the same ids, the watch time's (rows come days later).
      const report = youTube.control
        .requests()
        .find(
          (request) =>
            request.endpoint === 'reports.query' &&
            containsAll(request.query.filters?.replace('video==', '').split(','), platformPostIds),
        );
      expect(report?.query).toMatchObject({ ids: 'channel==MINE', dimensions: 'video' });
    },
  },
];

/**
 * Issue 28, end to end through each real network's fake: an account connected through the fake's
 * OAuth, a post published to it by the worker, its first collection an hour later on the host's
 * schedule (the host's and the fakes' clocks moved past it), the reading answered the same over
 * REST and through the MCP tool; the account's own numbers after the token sweep.
 */
describe('metrics collected from each network’s fake, read over REST and MCP', () => {
  let fakes: Fakes;
  let host: TestHost;
  let tenant: BootstrapResult;
  let mcp: McpSession;

  beforeAll(async () => {
    const [x, linkedIn, instagram, tiktok, youTube] = await Promise.all([
      startXFake(),
      startLinkedInFake({ issueRefreshTokens: true, now }),
      startInstagramFake({ now }),
      startTikTokFake({ settings: { processingPolls: 0, now } }),
      startYouTubeFake({ processingPolls: 0, now }),
    ]);
    fakes = { x, linkedIn, instagram, tiktok, youTube };
    const community = linkedIn.appWith('COMMUNITY_MANAGEMENT_API');
    const env = {
      X_API_URL: x.apiUrl,
      X_AUTHORIZE_URL: x.authorizeUrl,
      X_CLIENT_ID: x.clientId,
      X_CLIENT_SECRET: x.clientSecret,
      LINKEDIN_API_URL: linkedIn.apiUrl,
      LINKEDIN_OAUTH_URL: linkedIn.oauthUrl,
      LINKEDIN_CLIENT_ID: linkedIn.clientId,
      LINKEDIN_CLIENT_SECRET: linkedIn.clientSecret,
      LINKEDIN_COMMUNITY_CLIENT_ID: community?.clientId,
      LINKEDIN_COMMUNITY_CLIENT_SECRET: community?.clientSecret,
      INSTAGRAM_GRAPH_URL: instagram.graphUrl,
      INSTAGRAM_OAUTH_URL: instagram.oauthUrl,
      INSTAGRAM_AUTHORIZE_URL: instagram.authorizeUrl,
      INSTAGRAM_CLIENT_ID: instagram.clientId,
      INSTAGRAM_CLIENT_SECRET: instagram.clientSecret,
      TIKTOK_API_URL: tiktok.apiUrl,
      TIKTOK_AUTHORIZE_URL: tiktok.authorizeUrl,
      TIKTOK_CLIENT_ID: tiktok.clientId,
      TIKTOK_CLIENT_SECRET: tiktok.clientSecret,
      YOUTUBE_API_URL: youTube.apiUrl,
      YOUTUBE_UPLOAD_URL: youTube.uploadUrl,
      YOUTUBE_ANALYTICS_API_URL: youTube.analyticsUrl,
      GOOGLE_AUTHORIZE_URL: youTube.authorizeUrl,
      GOOGLE_TOKEN_URL: youTube.tokenUrl,
      GOOGLE_CLIENT_ID: youTube.clientId,
      GOOGLE_CLIENT_SECRET: youTube.clientSecret,
    };
    host = await startTestHost({
      clock: { now },
      networkEndpoints: loadNetworkEndpoints(env),
      appCredentials: envAppCredentials(env),
      // The sweep runs when the test says (refreshTokensNow), not on a timer.
      delivery: { tokenRefreshIntervalMs: false, sandboxLatencyMs: { min: 0, max: 0 } },
    });
    tenant = await host.admin.bootstrap({ name: 'Measured everywhere', planTier: 'enterprise' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [BACK] });
    await host.deps.tenancy.setMetricsCollection(tenant.tenantId, tenant.workspaceId, {
      platforms: CASES.map((network) => network.platform),
    });
    mcp = await connectMcp(host, tenant.apiKey);
  }, 30_000);
  afterAll(async () => {
    await mcp?.close();
    await host?.stop();
    await Promise.all(Object.values(fakes ?? {}).map((fake) => fake.stop()));
  });

  /** Moves the host's and the fakes' clocks to `at` (X's fake keeps a clock of its own). */
  const moveClockTo = (at: number) => {
    const step = at - now();
    if (step <= 0) return;
    time.offsetMs += step;
    fakes.x.control.advanceClock(step);
  };

  const storeMedia = async (bytes: Buffer, mimeType: string, filename: string) => {
    const mediaId = newId('media');
    const objectKey = mediaObjectKey(tenant.tenantId, tenant.workspaceId, mediaId);
    await host.deps.storage.put(objectKey, bytes, mimeType);
    const at = new Date(now()).toISOString();
    await host.deps.media.put({
      mediaId,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      filename,
      mimeType,
      sizeBytes: bytes.length,
      status: 'uploaded',
      objectKey,
      createdAt: at,
      uploadedAt: at,
    });
    return mediaId;
  };

  /** connect → Allow on the fake's consent page → our callback: the account id it sends back. */
  const connect = async (network: NetworkCase) => {
    const started = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/connect`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: network.platform, redirectUri: BACK, ...network.connect }),
    });
    expect(started.status).toBe(200);
    const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
    const back = await fetch(await consentAt(authorizeUrl), { redirect: 'manual' });
    expect(back.status).toBe(302);
    return String(new URL(String(back.headers.get('location'))).searchParams.get('accountId'));
  };

  const stored = async (postId: string) =>
    (await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, postId)) as Post;
  const restGet = async (path: string) => {
    const response = await host.call(`/v1/workspaces/${tenant.workspaceId}${path}`, {
      apiKey: tenant.apiKey,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  /** Publishes the network's post on the account; the post once published with its collection due. */
  const publish = async (network: NetworkCase, accountId: string, label: string) => {
    const created = await postsClient(host, tenant).create({
      platform: network.platform,
      accountId,
      status: 'publish',
      ...(await network.post({ storeMedia }, label)),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const settled = await eventually(
      async () => {
        const post = await stored(id);
        return post.status === 'failed' || (post.status === 'published' && post.metrics?.collection)
          ? post
          : undefined;
      },
      { timeoutMs: 20_000, what: `the ${network.platform} post published with its collection scheduled` },
    );
    expect(settled.status, JSON.stringify(settled.error)).toBe('published');
    return settled;
  };

  /** The post once its first reading is stored; a collection's problem fails at once. */
  const firstReading = (postId: string) =>
    eventually(
      async () => {
        const post = await stored(postId);
        return post.metrics?.problem || (post.metrics?.readings.length ?? 0) > 0 ? post : undefined;
      },
      { timeoutMs: 20_000, what: `post ${postId}'s first reading` },
    ).then((post) => {
      expect(post.metrics?.problem ?? null).toBeNull();
      return post;
    });

  it.each(CASES)(
    '$platform: collected an hour after publishing, the same reading over REST and MCP',
    async (network) => {
      // Prepare: the account connected through the fake's OAuth; a post published to it, two
      // where the network reads several ids a request (one collection reads both).
      const accountId = await connect(network);
      const batched = (networkMetricsOf(network.platform)?.batchSize ?? 1) > 1;
      const published: Post[] = [];
      for (const label of batched ? ['the first', 'the second'] : ['the only one'])
        published.push(await publish(network, accountId, label));
      const firstSlots = published.map((post) => Date.parse(post.metrics?.collection?.nextCollectAt ?? ''));
      expect(firstSlots).toEqual(published.map((post) => Date.parse(post.publishedAt ?? '') + HOUR_MS));

      // Act: the host's and the fake's time pass the first collection.
      moveClockTo(Math.max(...firstSlots) + 60_000);
      const read = await Promise.all(published.map((post) => firstReading(post.postId)));

      // Assess: over REST, the fields the network reports, grown since publishing.
      const [post] = read as [Post, ...Post[]];
      const rest = await restGet(`/posts/${post.postId}/metrics`);
      expect(rest.status).toBe(200);
      expect(rest.body).toMatchObject({
        postId: post.postId,
        platform: network.platform,
        collectedAt: post.metrics?.readings[0]?.collectedAt,
        metrics: post.metrics?.readings[0]?.metrics,
        problem: null,
      });
      const metrics = rest.body.metrics as Record<string, number>;
      expect(Object.keys(metrics).sort()).toEqual([...network.postFields].sort());
      for (const field of network.growing) expect(metrics[field], field).toBeGreaterThan(0);
      expect(Date.parse(String(rest.body.nextCollectionAt))).toBe(
        Date.parse(post.publishedAt ?? '') + 6 * HOUR_MS,
      );
      // Through the MCP tool: the same answer.
      const tool = await mcp.call('getPostMetrics', { workspaceId: tenant.workspaceId, postId: post.postId });
      expect(tool.isError).toBe(false);
      expect(tool.body).toEqual(rest.body);
      // What the fake saw: the collection kept the network's rule (every id in one request).
      network.requestRule(
        fakes,
        read.map((one) => String(one.platformPostId)),
      );

      // The account's own numbers, read by the token sweep.
      await host.delivery?.refreshTokensNow();
      const account = await restGet(`/accounts/${accountId}/metrics`);
      expect(account.status, JSON.stringify(account.body)).toBe(200);
      expect(account.body).toMatchObject({ accountId, platform: network.platform, problem: null });
      const accountMetrics = account.body.metrics as Record<string, number>;
      expect(Object.keys(accountMetrics).sort()).toEqual([...network.accountFields].sort());
      expect(accountMetrics.followers).toBeGreaterThan(0);
      // Through the MCP tool: the same answer. A post's collection still finishing takes the account's
      // reading too and may write a newer one between two reads, so the tool's answer is compared
      // with REST answers on either side of it that agree.
      await eventually(
        async () => {
          const before = await restGet(`/accounts/${accountId}/metrics`);
          const accountTool = await mcp.call('getAccountMetrics', {
            workspaceId: tenant.workspaceId,
            accountId,
          });
          const after = await restGet(`/accounts/${accountId}/metrics`);
          expect(after.body).toEqual(before.body);
          expect(accountTool.isError).toBe(false);
          expect(accountTool.body).toEqual(before.body);
          return true;
        },
        { what: "the account's metrics, the same over REST and MCP" },
      );
    },
    60_000,
  );
});
