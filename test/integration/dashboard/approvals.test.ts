import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { postsClient, tweet } from '../../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

interface PostBody {
  status: string;
  approval: { status: string; decidedBy?: string; reason?: string } | null;
}

/**
 * The approvals page over real HTTP: the queue of posts waiting for approval, approve, reject
 * with a reason; a viewer sees the queue and decides nothing; a workspace admin never reaches
 * another workspace's posts, not even with a forged form.
 */
describe('dashboard: approvals', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let admin: DashboardClient;
  let adminUserId: string;
  let queuePage: string;

  const waitingPost = async (target: BootstrapResult = tenant) => {
    const response = await postsClient(host, target).create(tweet(target, { content: 'needs a look' }));
    const created = (await response.json()) as { id: string; status: string };
    expect(created.status).toBe('pending_approval');
    return created.id;
  };
  const readPost = async (postId: string, target: BootstrapResult = tenant) =>
    (await (await postsClient(host, target).get(postId)).json()) as PostBody;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Approvals page', planTier: 'enterprise' });
    await host.deps.tenancy.setWorkspacePolicies(tenant.tenantId, tenant.workspaceId, {
      requireApproval: true,
    });
    const signed = await signedInAs(host, {
      role: 'workspace_admin',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    });
    admin = signed.client;
    adminUserId = signed.user.userId;
    queuePage = `/workspaces/${tenant.workspaceId}/approvals`;
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('lists the posts waiting for approval with Approve and a labelled Reason to reject', async () => {
    // Prepare
    const postId = await waitingPost();

    // Act
    const answer = await admin.get(queuePage);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('<h1>Approvals</h1>');
    expect(answer.html).toContain(`>${postId}</a>`);
    expect(answer.html).toContain(
      `action="/dashboard/workspaces/${tenant.workspaceId}/posts/${postId}/approve"`,
    );
    expect(answer.html).toContain(
      `<label for="reason-${postId}">Reason</label><input id="reason-${postId}" name="reason"`,
    );
    expect(answer.html).toContain('>Reject</button>');
  });

  it('approves a post: back to the queue with a notice, the post queued and decided by the user', async () => {
    // Prepare
    const postId = await waitingPost();

    // Act
    const answer = await admin.post(`/workspaces/${tenant.workspaceId}/posts/${postId}/approve`);
    const queue = await admin.get(String(answer.location));

    // Assess
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`/dashboard${queuePage}?done=approved`);
    expect(queue.html).toContain('<p class="notice" role="status">Post approved.</p>');
    expect(queue.html).not.toContain(`>${postId}</a>`);
    const post = await readPost(postId);
    expect(post.status).toBe('queued');
    expect(post.approval).toMatchObject({ status: 'approved', decidedBy: adminUserId });
  });

  it('rejects a post with the reason given', async () => {
    // Prepare
    const postId = await waitingPost();

    // Act
    const answer = await admin.post(`/workspaces/${tenant.workspaceId}/posts/${postId}/reject`, {
      reason: 'Off brand <b>tone</b>',
    });
    const queue = await admin.get(String(answer.location));

    // Assess
    expect(answer.status).toBe(303);
    expect(queue.html).toContain('Post rejected.');
    const post = await readPost(postId);
    expect(post.status).toBe('rejected');
    expect(post.approval).toMatchObject({ status: 'rejected', reason: 'Off brand <b>tone</b>' });
  });

  it('refuses a rejection without a reason, and the post keeps waiting', async () => {
    // Prepare
    const postId = await waitingPost();

    // Act
    const answer = await admin.post(`/workspaces/${tenant.workspaceId}/posts/${postId}/reject`, {
      reason: '  ',
    });

    // Assess
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('To reject a post, give a reason');
    expect((await readPost(postId)).status).toBe('pending_approval');
  });

  it('answers 409 with the reason when the post no longer waits', async () => {
    // Prepare
    const postId = await waitingPost();
    await admin.post(`/workspaces/${tenant.workspaceId}/posts/${postId}/approve`);

    // Act
    const again = await admin.post(`/workspaces/${tenant.workspaceId}/posts/${postId}/reject`, {
      reason: 'late',
    });

    // Assess
    expect(again.status).toBe(409);
    expect(again.html).toContain('role="alert"');
    expect((await readPost(postId)).status).toBe('queued');
  });

  it('shows a viewer the queue without decisions, and refuses their approve: the post stays pending', async () => {
    // Prepare
    const postId = await waitingPost();
    const { client: viewer } = await signedInAs(host, {
      role: 'viewer',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    });

    // Act
    const queue = await viewer.get(queuePage);
    const approve = await viewer.post(`/workspaces/${tenant.workspaceId}/posts/${postId}/approve`);

    // Assess
    expect(queue.status).toBe(200);
    expect(queue.html).toContain(`>${postId}</a>`);
    expect(queue.html).not.toContain('>Approve</button>');
    expect(approve.status).toBe(403);
    expect(approve.location).toBeUndefined();
    expect((await readPost(postId)).status).toBe('pending_approval');
  });

  it("answers 404 to a workspace admin for another workspace's post, its page and a forged approve", async () => {
    // Prepare
    const other = await host.admin.bootstrap({ name: 'Other approvals', planTier: 'enterprise' });
    await host.deps.tenancy.setWorkspacePolicies(other.tenantId, other.workspaceId, {
      requireApproval: true,
    });
    const theirs = await waitingPost(other);

    // Act
    const detail = await admin.get(`/workspaces/${other.workspaceId}/posts/${theirs}`);
    const forged = await admin.post(`/workspaces/${other.workspaceId}/posts/${theirs}/approve`);
    const throughOurs = await admin.post(`/workspaces/${tenant.workspaceId}/posts/${theirs}/approve`);

    // Assess
    expect(detail.status).toBe(404);
    expect(forged.status).toBe(404);
    expect(throughOurs.status).toBe(404);
    expect((await readPost(theirs, other)).status).toBe('pending_approval');
  });
});
