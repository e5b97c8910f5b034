import { newId } from '../../shared/domain/ids.js';
import type { PostMetricsState } from '../../shared/domain/metrics.js';
import { collectsMetricsFor } from '../../shared/domain/metrics-settings.js';
import { PLATFORMS, type Platform } from '../../shared/domain/platforms.js';
import type { Post } from '../../shared/domain/posts.js';
import type { Account } from '../../shared/domain/tenancy.js';
import { networkMetricsOf } from '../../shared/networks/network-metrics.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import type { TestHost } from './test-host.js';

/** A network whose metrics a workspace collects when it has said nothing (not one billed per read). */
export function aCollectedNetwork(): Platform {
  const found = PLATFORMS.find(
    (platform) => networkMetricsOf(platform) !== undefined && collectsMetricsFor({}, platform),
  );
  if (!found) throw new Error('No network declares metrics collected by default.');
  return found;
}

/**
 * Stores a post of the workspace as the delivery and the metrics collection leave it: published
 * an hour before `at` unless `status` says otherwise, on the workspace's account of `platform`.
 */
export async function seedPostWithMetrics(
  host: TestHost,
  tenant: BootstrapResult,
  options: {
    at: string;
    platform?: Platform;
    accountId?: string;
    status?: Post['status'];
    metrics?: PostMetricsState;
  },
): Promise<string> {
  const platform = options.platform ?? aCollectedNetwork();
  const now = Date.parse(options.at);
  const published = new Date(now - 3600_000).toISOString();
  const postId = newId('post', now);
  const status = options.status ?? 'published';
  await host.deps.posts.create({
    postId,
    tenantId: tenant.tenantId,
    workspaceId: tenant.workspaceId,
    accountId: options.accountId ?? tenant.accounts[platform],
    platform,
    postType: 'text',
    status,
    content: 'How did this do?',
    media: [],
    createdAt: published,
    updatedAt: published,
    ...(status === 'published' && {
      publishedAt: published,
      platformPostId: `net-${postId}`,
    }),
    attempts: status === 'published' ? 1 : 0,
    createdBy: tenant.agentId,
    ...(options.metrics && { metrics: options.metrics }),
    version: 1,
  });
  return postId;
}

/**
 * Stores a connected real-network account of the workspace (as a connect leaves one) on a network
 * collected by default, granted its metrics scopes unless `scopes` says otherwise.
 */
export async function seedRealAccount(
  host: TestHost,
  tenant: BootstrapResult,
  options: { at: string; scopes?: string[]; metrics?: Account['metrics'] },
): Promise<string> {
  const platform = aCollectedNetwork();
  const accountId = newId('account', Date.parse(options.at));
  await host.deps.tenancy.putAccount({
    accountId,
    tenantId: tenant.tenantId,
    workspaceId: tenant.workspaceId,
    platform,
    displayName: 'Brand',
    handle: `brand-${accountId.slice(-6)}`,
    status: 'connected',
    sandbox: false,
    connectedAt: options.at,
    createdAt: options.at,
    networkUserId: `user-${accountId}`,
    scopes: options.scopes ?? [...(networkMetricsOf(platform)?.scopes ?? [])],
    ...(options.metrics && { metrics: options.metrics }),
  });
  return accountId;
}
