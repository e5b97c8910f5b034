import { newId } from '../../shared/domain/ids.js';
import type { PostMetricsState } from '../../shared/domain/metrics.js';
import type { Platform } from '../../shared/domain/platforms.js';
import { networkMetricsOf } from '../../shared/networks/network-metrics.js';
import type { Clock } from '../../shared/ports/clock.js';
import type { PostStore } from '../../shared/ports/post-store.js';
import type { TenancyStore } from '../../shared/ports/tenancy-store.js';
import type { BootstrapResult } from '../../shared/services/admin.js';

const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

/** What the metrics examples need seeded, as the collection and the daily sweep leave it. */
export interface MetricsSeeds {
  /** A post of the workspace published 7 h ago: `read` with its 1 h and 6 h readings, `unread` before its first. */
  seedMetricsPost(kind: 'read' | 'unread'): Promise<string>;
  /** A connected account of the network: `read` with three daily readings, `missing_scopes` without the metrics scopes. */
  seedMetricsAccount(kind: 'read' | 'missing_scopes'): Promise<string>;
}

export function makeMetricsSeeds(
  deps: { posts: PostStore; tenancy: TenancyStore },
  tenant: BootstrapResult,
  clock: Clock,
  platform: Platform,
): MetricsSeeds {
  return {
    async seedMetricsPost(kind) {
      const now = clock.now();
      const published = now - 7 * HOUR;
      const postId = newId('post', published);
      const metrics: PostMetricsState =
        kind === 'read'
          ? {
              readings: [
                {
                  collectedAt: at(published + HOUR),
                  metrics: { impressions: 412, reach: 301, likes: 9, comments: 1, shares: 0, clicks: 14 },
                },
                {
                  collectedAt: at(published + 6 * HOUR),
                  metrics: { impressions: 1280, reach: 902, likes: 31, comments: 4, shares: 2, clicks: 57 },
                },
              ],
              collection: { checks: 2, nextCollectAt: at(published + 24 * HOUR) },
            }
          : { readings: [], collection: { checks: 0, nextCollectAt: at(now + HOUR) } };
      await deps.posts.create({
        postId,
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        accountId: tenant.accounts[platform],
        platform,
        postType: 'text',
        status: 'published',
        content: 'Our spring catalogue is out.',
        media: [],
        createdAt: at(published - 60_000),
        updatedAt: at(published),
        publishedAt: at(published),
        platformPostId: 'urn:li:share:7101234567890123456',
        attempts: 1,
        createdBy: tenant.agentId,
        metrics,
        version: 3,
      });
      return postId;
    },
    async seedMetricsAccount(kind) {
      const now = clock.now();
      const accountId = newId('account', now - 90 * 24 * HOUR);
      const day = (daysAgo: number) =>
        at(Date.parse(`${at(now).slice(0, 10)}T03:00:00.000Z`) - daysAgo * 24 * HOUR);
      const needed = networkMetricsOf(platform)?.scopes ?? [];
      await deps.tenancy.putAccount({
        accountId,
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        platform,
        displayName: kind === 'read' ? 'Acme Studio' : 'Acme Archive',
        handle: kind === 'read' ? 'acme-studio' : 'acme-archive',
        status: 'connected',
        sandbox: false,
        connectedAt: day(90),
        createdAt: day(90),
        networkUserId: kind === 'read' ? 'member-1001' : 'member-1002',
        scopes: kind === 'read' ? [...needed] : ['openid', 'profile', 'w_member_social'],
        ...(kind === 'read' && {
          metrics: {
            readings: [
              { collectedAt: day(2), metrics: { followers: 1204 } },
              { collectedAt: day(1), metrics: { followers: 1211 } },
              { collectedAt: day(0), metrics: { followers: 1230 } },
            ],
          },
        }),
      });
      return accountId;
    },
  };
}
