import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostMetricsState } from '../../../shared/domain/metrics.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { postsClient, tweet } from '../../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

const NOW = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const PUBLISHED = NOW - 30 * HOUR;

/**
 * A post's page shows its metrics through the API's metrics read: a chart and a table per metric
 * its readings report, the next collection, the last collection's problem; without numbers, the
 * 409's meaning in words; nothing for a post not published.
 */
describe('dashboard: a post’s metrics', () => {
  const clock = fixedClock(NOW);
  let host: TestHost;
  let tenant: BootstrapResult;
  let client: DashboardClient;

  /** A post created as a draft, then stored as published with the given metrics state. */
  const published = async (
    platform: 'twitter' | 'tiktok',
    metrics?: PostMetricsState,
    { owner = tenant, publishedAt = PUBLISHED, content = 'hello' } = {},
  ) => {
    const tenant = owner;
    const body =
      platform === 'twitter'
        ? tweet(tenant, { status: 'draft', content })
        : tweet(tenant, {
            platform: 'tiktok',
            accountId: tenant.accounts.tiktok,
            status: 'draft',
            postType: 'video',
            content,
          });
    const response = await postsClient(host, tenant).create(body);
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const post = await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, id);
    if (!post) throw new Error('the post was not stored');
    await host.deps.posts.update(
      {
        ...post,
        status: 'published',
        publishedAt: iso(publishedAt),
        platformPostId: `net-${id}`,
        ...(metrics && { metrics }),
        version: post.version + 1,
      },
      post.version,
    );
    return id;
  };
  const pageOf = async (postId: string) => {
    const answer = await client.get(`/workspaces/${tenant.workspaceId}/posts/${postId}`);
    expect(answer.status).toBe(200);
    return answer.html;
  };
  const metricsOf = (html: string) =>
    html.match(/<section aria-labelledby="metrics-heading">.*?<\/section>/s)?.[0];

  beforeAll(async () => {
    host = await startTestHost({ clock });
    tenant = await host.admin.bootstrap({ name: 'Post metrics page', planTier: 'enterprise' });
    ({ client } = await signedInAs(host, {
      role: 'viewer',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    }));
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('charts each reported metric with its table, and says when the next collection is due', async () => {
    // Prepare: three readings; likes missing from the first (not reported then).
    const postId = await published('twitter', {
      readings: [
        { collectedAt: iso(PUBLISHED + HOUR), metrics: { impressions: 120, views: 80 } },
        { collectedAt: iso(PUBLISHED + 6 * HOUR), metrics: { impressions: 900, views: 400, likes: 12 } },
        { collectedAt: iso(PUBLISHED + 24 * HOUR), metrics: { impressions: 2500, views: 1000, likes: 40 } },
      ],
      collection: { checks: 3, nextCollectAt: iso(PUBLISHED + 72 * HOUR) },
    });

    // Act
    const section = metricsOf(await pageOf(postId));

    // Assess
    expect(section).toBeDefined();
    expect(section?.match(/<svg [^>]*role="img"/g)).toHaveLength(3);
    expect(section).toContain('<caption>Impressions, each reading</caption>');
    expect(section).toContain('<caption>Likes, each reading</caption>');
    expect(section).toContain('<td>2,500</td>');
    expect(section).toContain('Impressions over 3 readings: 120 at');
    expect(section).toContain('Likes over 2 readings: 12 at');
    expect(section).toContain(`Next collection: <time datetime="${iso(PUBLISHED + 72 * HOUR)}">`);
    expect(section).not.toContain('read nothing');
  });

  it('says the last collection’s problem beside the numbers it read before', async () => {
    const postId = await published('twitter', {
      readings: [{ collectedAt: iso(PUBLISHED + HOUR), metrics: { likes: 3 } }],
      problem: { failure: 'not_found', at: iso(PUBLISHED + 6 * HOUR) },
    });

    const section = metricsOf(await pageOf(postId));

    expect(section).toContain('Likes: one reading so far, 3 at');
    expect(section).toContain('The network no longer has the post: collection has stopped.');
    expect(section).toContain('Collection has ended: no further reading is scheduled.');
  });

  it('says a first collection still to come, with its time, instead of showing zeros', async () => {
    const postId = await published('tiktok', {
      readings: [],
      collection: { checks: 0, nextCollectAt: iso(PUBLISHED + 31 * HOUR) },
    });

    const section = metricsOf(await pageOf(postId));

    expect(section).toContain(
      `Not collected yet: the first reading is due at <time datetime="${iso(PUBLISHED + 31 * HOUR)}">`,
    );
    expect(section).not.toContain('<svg');
  });

  it('says which permissions the account lacks and where to reconnect it', async () => {
    const postId = await published('tiktok', {
      readings: [],
      problem: { failure: 'missing_scopes', at: iso(PUBLISHED + HOUR), missingScopes: ['video.list'] },
    });

    const section = metricsOf(await pageOf(postId));

    expect(section).toContain('The account lacks the permissions its network asks for metrics (video.list)');
    expect(section).toContain(`href="/dashboard/workspaces/${tenant.workspaceId}/accounts">Accounts</a>`);
  });

  it('shows no metrics section on a post that is not published', async () => {
    const response = await postsClient(host, tenant).create(tweet(tenant, { status: 'draft' }));
    const { id } = (await response.json()) as { id: string };

    expect(metricsOf(await pageOf(id))).toBeUndefined();
  });

  it('totals the last 30 days per network on the workspace overview, and ranks the best posts', async () => {
    // Prepare: a workspace of its own; two X posts and a TikTok video with readings, one X post
    // without any, and one published 31 days ago (outside the window).
    const owner = await host.admin.bootstrap({ name: 'Metrics overview', planTier: 'enterprise' });
    const { client: viewer } = await signedInAs(host, {
      role: 'viewer',
      tenantId: owner.tenantId,
      workspaceIds: [owner.workspaceId],
    });
    const reading = (metrics: Record<string, number>) => ({
      readings: [{ collectedAt: iso(PUBLISHED + HOUR), metrics }],
    });
    await published('twitter', reading({ impressions: 1000, likes: 5 }), { owner, content: 'first tweet' });
    await published('twitter', reading({ impressions: 3000, likes: 20 }), { owner, content: 'second tweet' });
    await published('tiktok', reading({ views: 700, likes: 9 }), { owner, content: 'the video' });
    await published('twitter', { readings: [] }, { owner, content: 'not read yet' });
    await published('twitter', reading({ impressions: 99_999, likes: 999 }), {
      owner,
      content: 'long ago',
      publishedAt: NOW - 31 * 24 * HOUR,
    });

    // Act
    const answer = await viewer.get(`/workspaces/${owner.workspaceId}`);

    // Assess
    expect(answer.status).toBe(200);
    const section = answer.html.match(
      /<section class="metrics-overview" aria-labelledby="metrics-overview">.*?<\/section>/s,
    )?.[0];
    expect(section).toContain(
      'From the 50 newest published posts at most: 4 published in the last 30 days, 3 with metrics read.',
    );
    const xRow = section?.match(/<tr><th scope="row" data-label="Network">X<\/th>.*?<\/tr>/s)?.[0];
    expect(xRow).toContain('data-label="Posts measured">2</td>');
    expect(xRow).toContain('data-label="Impressions">4,000</td>');
    expect(xRow).toContain('data-label="Likes">25</td>');
    expect(xRow).toContain('data-label="Views"><span class="hint">not reported</span>');
    expect(section).toContain('data-label="Views">700</td>');
    expect(section).not.toContain('99,999');
    // Ranked by views, then likes: the video, the second tweet, the first.
    const ranked = [...(section ?? '').matchAll(/data-label="Post"><a [^>]*>([^<]*)<\/a>/g)].map(
      (match) => match[1],
    );
    expect(ranked).toEqual(['the video', 'second tweet', 'first tweet']);
  });

  it('says so on the overview when no post of the window has metrics yet', async () => {
    const owner = await host.admin.bootstrap({ name: 'Metrics overview, none yet', planTier: 'enterprise' });
    const { client: viewer } = await signedInAs(host, {
      role: 'viewer',
      tenantId: owner.tenantId,
      workspaceIds: [owner.workspaceId],
    });
    await published('tiktok', { readings: [] }, { owner });

    const answer = await viewer.get(`/workspaces/${owner.workspaceId}`);

    expect(answer.html).toContain(
      'No metrics have been read yet for the posts published in the last 30 days',
    );
    expect(answer.html).not.toContain('Totals per network');
  });
});
