import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type { Account } from '../../shared/domain/tenancy.js';
import { postMetricsScopesOf } from '../../shared/networks/network-metrics.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { aCollectedNetwork, seedPostWithMetrics } from '../support/metrics-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const AT = '2030-03-01T12:00:00.000Z';
const HOUR = '2030-03-01T11:00:00.000Z';

describe('GET /v1/workspaces/{workspace_id}/posts/{post_id}/metrics over HTTP', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  const read = (postId: string, workspaceId = tenant.workspaceId) =>
    host.call(`/v1/workspaces/${workspaceId}/posts/${postId}/metrics`, { apiKey: tenant.apiKey });
  const seed = (options: Omit<Parameters<typeof seedPostWithMetrics>[2], 'at'> = {}) =>
    seedPostWithMetrics(host, tenant, { at: AT, ...options });

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Metrics' });
  });
  afterAll(() => host.stop());

  it('answers the latest reading, every reading oldest first and the next collection', async () => {
    const postId = await seed({
      metrics: {
        readings: [
          { collectedAt: HOUR, metrics: { views: 10, likes: 1 } },
          { collectedAt: AT, metrics: { views: 42, likes: 3, comments: 0 } },
        ],
        collection: { checks: 2, nextCollectAt: '2030-03-02T11:00:00.000Z' },
      },
    });

    const response = await read(postId);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      postId,
      platform: aCollectedNetwork(),
      collectedAt: AT,
      metrics: { views: 42, likes: 3, comments: 0 },
      history: [
        { collectedAt: HOUR, metrics: { views: 10, likes: 1 } },
        { collectedAt: AT, metrics: { views: 42, likes: 3, comments: 0 } },
      ],
      nextCollectionAt: '2030-03-02T11:00:00.000Z',
      problem: null,
    });
  });

  it('keeps answering readings taken before a problem, with the problem beside them; null once the schedule ended', async () => {
    const postId = await seed({
      metrics: {
        readings: [{ collectedAt: HOUR, metrics: { views: 7 } }],
        problem: { failure: 'missing_scopes', at: AT, missingScopes: ['video.list'] },
      },
    });

    const body = await (await read(postId)).json();

    expect(body).toMatchObject({
      metrics: { views: 7 },
      nextCollectionAt: null,
      problem: { failure: 'missing_scopes', at: AT, missingScopes: ['video.list'] },
    });
  });

  it('a post that is not published: 409 post_not_published with its status', async () => {
    const postId = await seed({ status: 'scheduled' });

    const response = await read(postId);

    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: 'post_not_published', postStatus: 'scheduled' });
  });

  it('published, nothing read yet: 409 metrics_not_collected_yet with the first collection, never zeros', async () => {
    const postId = await seed({
      metrics: { readings: [], collection: { checks: 0, nextCollectAt: '2030-03-01T12:00:00.000Z' } },
    });

    const response = await read(postId);

    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: 'metrics_not_collected_yet',
      nextCollectionAt: '2030-03-01T12:00:00.000Z',
    });
  });

  it('a workspace whose setting leaves the network out: 409 metrics_unavailable, reason not_collected_by_workspace', async () => {
    const other = await host.admin.bootstrap({ name: 'Collects nothing' });
    await host.deps.tenancy.setMetricsCollection(other.tenantId, other.workspaceId, { platforms: [] });
    const postId = await seedPostWithMetrics(host, other, { at: AT });

    const response = await host.call(`/v1/workspaces/${other.workspaceId}/posts/${postId}/metrics`, {
      apiKey: other.apiKey,
    });

    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: 'metrics_unavailable',
      reason: 'not_collected_by_workspace',
    });
  });

  it('deleted at the network before any reading: 409 metrics_unavailable, reason deleted_at_network', async () => {
    const postId = await seed({
      metrics: { readings: [], problem: { failure: 'not_found', at: AT } },
    });

    const response = await read(postId);

    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: 'metrics_unavailable',
      reason: 'deleted_at_network',
    });
  });

  it('an account whose token lacks the metrics permissions: 409 metrics_missing_scopes naming them', async () => {
    const platform = aCollectedNetwork();
    // What this post needs (LinkedIn: its author's scope alone), the whole list elsewhere.
    const needed = postMetricsScopesOf({ platform });
    const account: Account = {
      accountId: newId('account', Date.parse(AT)),
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      platform,
      displayName: 'Connected before metrics',
      handle: 'early',
      status: 'connected',
      sandbox: false,
      connectedAt: HOUR,
      createdAt: HOUR,
      scopes: ['publish-only'],
    };
    await host.deps.tenancy.putAccount(account);
    const postId = await seed({ accountId: account.accountId });

    const response = await read(postId);

    expect(needed.length).toBeGreaterThan(0);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: 'metrics_missing_scopes', missingScopes: needed });
  });

  it('another workspace’s post, or none: 404', async () => {
    const other = await host.admin.bootstrap({ name: 'Elsewhere' });
    const theirs = await seedPostWithMetrics(host, other, { at: AT });

    expect((await read(theirs)).status).toBe(404);
    expect((await read(newId('post', Date.parse(AT)))).status).toBe(404);
  });
});
