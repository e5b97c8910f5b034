import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { LINKEDIN_COMMUNITY_SCOPES, LINKEDIN_MEMBER_SCOPES } from '../../shared/networks/linkedin/oauth.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const AT = '2030-03-01T12:00:00.000Z';
const HOUR = '2030-03-01T11:00:00.000Z';
const PAGE = 'urn:li:organization:2414183';
/** A Community Management app's grant without the member analytics (askMetricsScopes false). */
const COMMUNITY_WITHOUT_ANALYTICS = LINKEDIN_COMMUNITY_SCOPES.filter(
  (scope) => !scope.startsWith('r_member_'),
);

/**
 * A LinkedIn post's metrics check asks for what its author needs (a Page's post rw_organization_admin,
 * a member's r_member_postAnalytics), not every scope LinkedIn's metrics have.
 */
describe("GET …/posts/{post_id}/metrics of LinkedIn posts, by the post's author", () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let n = 0;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'LinkedIn scopes' });
  });
  afterAll(() => host.stop());

  async function anAccount(scopes: readonly string[]): Promise<string> {
    n += 1;
    const accountId = newId('account', Date.parse(AT) + n);
    await host.deps.tenancy.putAccount({
      accountId,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      platform: 'linkedin',
      displayName: `Member ${n}`,
      handle: `member${n}`,
      status: 'connected',
      sandbox: false,
      connectedAt: HOUR,
      createdAt: HOUR,
      networkUserId: `member-${n}`,
      scopes: [...scopes],
    });
    return accountId;
  }

  /** A published post of the account, nothing read yet, as `author`. */
  async function aPost(accountId: string, author: string): Promise<string> {
    n += 1;
    const postId = newId('post', Date.parse(AT) + n);
    await host.deps.posts.create({
      postId,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      accountId,
      platform: 'linkedin',
      postType: 'text',
      status: 'published',
      content: 'How did this do?',
      media: [],
      platformOptions: { linkedin: { author } },
      createdAt: HOUR,
      updatedAt: HOUR,
      publishedAt: HOUR,
      platformPostId: `urn:li:share:70000000000000000${n}`,
      attempts: 1,
      createdBy: tenant.agentId,
      metrics: { readings: [], collection: { checks: 0, nextCollectAt: AT } },
      version: 1,
    });
    return postId;
  }

  const read = (postId: string) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}/posts/${postId}/metrics`, { apiKey: tenant.apiKey });

  it("a Page's post of an account holding rw_organization_admin but no member analytics: not missing scopes, still to be collected", async () => {
    const accountId = await anAccount(COMMUNITY_WITHOUT_ANALYTICS);
    const postId = await aPost(accountId, PAGE);

    const response = await read(postId);

    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: 'metrics_not_collected_yet', nextCollectionAt: AT });
  });

  it("the member's own post of that account: 409 metrics_missing_scopes naming r_member_postAnalytics alone", async () => {
    const accountId = await anAccount(COMMUNITY_WITHOUT_ANALYTICS);
    const postId = await aPost(accountId, 'member');

    const response = await read(postId);

    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: 'metrics_missing_scopes',
      missingScopes: ['r_member_postAnalytics'],
    });
  });

  it("a Page's post of a member app's account: 409 metrics_missing_scopes naming rw_organization_admin alone", async () => {
    const accountId = await anAccount(LINKEDIN_MEMBER_SCOPES);
    const postId = await aPost(accountId, PAGE);

    const response = await read(postId);

    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: 'metrics_missing_scopes',
      missingScopes: ['rw_organization_admin'],
    });
  });
});
