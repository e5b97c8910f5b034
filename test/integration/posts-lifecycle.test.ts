import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { inOneHour, postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

interface PostBody {
  id: string;
  status: string;
  scheduledAt: string | null;
  content: unknown;
  approval: { status: string; decidedBy?: string; reason?: string; decidedAt?: string } | null;
}

describe('changing posts: PATCH, DELETE, approve, reject', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;

  const createId = async (body: unknown) => ((await (await posts.create(body)).json()) as { id: string }).id;
  const read = async (response: Response) => {
    expect(response.status).toBe(200);
    return (await response.json()) as PostBody;
  };

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Lifecycle' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  describe('PATCH', () => {
    it('reschedules a scheduled post', async () => {
      const id = await createId(tweet(tenant, { status: 'scheduled', scheduledAt: inOneHour() }));
      const later = new Date(Date.now() + 7_200_000).toISOString();
      const updated = await read(await posts.patch(id, { scheduledAt: later }));
      expect(updated).toMatchObject({ status: 'scheduled', scheduledAt: later });
    });

    it('edits a draft, then submits it: it becomes queued after passing the checks', async () => {
      const id = await createId(tweet(tenant, { status: 'draft', content: 'x'.repeat(300) }));
      await expectEnvelope(await posts.patch(id, { status: 'publish' }), 422, 'VALIDATION_FAILED');
      const edited = await read(await posts.patch(id, { content: 'Short now' }));
      expect(edited).toMatchObject({ status: 'draft', content: 'Short now' });
      expect((await read(await posts.patch(id, { status: 'publish' }))).status).toBe('queued');
    });

    it('submits a draft as scheduled only with a future scheduledAt', async () => {
      const id = await createId(tweet(tenant, { status: 'draft' }));
      await expectEnvelope(await posts.patch(id, { status: 'scheduled' }), 409, 'conflict');
      await expectEnvelope(
        await posts.patch(id, { status: 'scheduled', scheduledAt: '2020-01-01T00:00:00Z' }),
        400,
        'INVALID_REQUEST',
      );
      const at = inOneHour();
      expect(await read(await posts.patch(id, { status: 'scheduled', scheduledAt: at }))).toMatchObject({
        status: 'scheduled',
        scheduledAt: at,
      });
    });

    it('unschedules back to a draft', async () => {
      const id = await createId(tweet(tenant, { status: 'scheduled', scheduledAt: inOneHour() }));
      expect((await read(await posts.patch(id, { status: 'draft' }))).status).toBe('draft');
    });

    it('answers 409 conflict on a queued post and changes nothing', async () => {
      const id = await createId(tweet(tenant));
      await expectEnvelope(await posts.patch(id, { content: 'changed' }), 409, 'conflict');
      expect((await read(await posts.get(id))).content).toBe('hello');
    });

    it('answers 400 to an empty change and 404 to a post of another workspace', async () => {
      const id = await createId(tweet(tenant, { status: 'draft' }));
      await expectEnvelope(await posts.patch(id, {}), 400, 'INVALID_REQUEST');
      const other = await host.admin.bootstrap({ name: 'Other' });
      const foreignId = (
        (await (await postsClient(host, other).create(tweet(other))).json()) as { id: string }
      ).id;
      await expectEnvelope(await posts.patch(foreignId, { content: 'mine now' }), 404, 'not_found');
      await expectEnvelope(await posts.get(foreignId), 404, 'not_found');
    });
  });

  describe('DELETE', () => {
    it.each([
      ['draft', (t: BootstrapResult) => tweet(t, { status: 'draft' })],
      ['scheduled', (t: BootstrapResult) => tweet(t, { status: 'scheduled', scheduledAt: inOneHour() })],
      ['queued', (t: BootstrapResult) => tweet(t)],
    ])('cancels a %s post, then answers 409 to a second cancel', async (_status, body) => {
      const id = await createId(body(tenant));
      expect((await read(await posts.cancel(id))).status).toBe('cancelled');
      expect((await read(await posts.get(id))).status).toBe('cancelled');
      await expectEnvelope(await posts.cancel(id), 409, 'conflict');
      await expectEnvelope(await posts.patch(id, { content: 'again' }), 409, 'conflict');
    });
  });

  describe('approvals', () => {
    let reviewed: BootstrapResult;
    let client: ReturnType<typeof postsClient>;

    beforeAll(async () => {
      reviewed = await host.admin.bootstrap({ name: 'Reviewed' });
      client = postsClient(host, reviewed);
      await host.deps.tenancy.setWorkspacePolicies(reviewed.tenantId, reviewed.workspaceId, {
        requireApproval: true,
      });
    });

    const createPending = async (body: unknown) => {
      const response = await client.create(body);
      const created = (await response.json()) as { id: string; status: string };
      expect(created.status).toBe('pending_approval');
      return created.id;
    };

    it('approve moves a publish post to queued and records the reviewer', async () => {
      const id = await createPending(tweet(reviewed));
      const pending = await read(await client.get(id));
      expect(pending.approval).toMatchObject({ status: 'pending' });
      const approved = await read(await client.approve(id));
      expect(approved.status).toBe('queued');
      expect(approved.approval).toMatchObject({
        status: 'approved',
        decidedBy: expect.stringMatching(/^agt_/),
      });
      await expectEnvelope(await client.approve(id), 409, 'conflict');
    });

    it('approve moves a post whose time is still ahead to scheduled', async () => {
      const id = await createPending(tweet(reviewed, { status: 'scheduled', scheduledAt: inOneHour() }));
      expect((await read(await client.approve(id))).status).toBe('scheduled');
    });

    it('reject ends it with the reason', async () => {
      const id = await createPending(tweet(reviewed));
      const rejected = await read(await client.reject(id, 'Off brand'));
      expect(rejected.status).toBe('rejected');
      expect(rejected.approval).toMatchObject({ status: 'rejected', reason: 'Off brand' });
      await expectEnvelope(await client.reject(id, 'again'), 409, 'conflict');
    });

    it('reject needs a reason', async () => {
      const id = await createPending(tweet(reviewed));
      await expectEnvelope(await client.reject(id, '   '), 400, 'INVALID_REQUEST');
    });

    it('an agent without approvals:decide gets 403 permission_denied', async () => {
      const id = await createPending(tweet(reviewed));
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        {
          tenantId: reviewed.tenantId,
          name: 'Writer',
          fromWorkspaceId: reviewed.workspaceId,
          permissions: ['posts:read', 'posts:write'],
        },
      );
      const key = await host.admin.createApiKey({ tenantId: reviewed.tenantId, agentId: agent.agentId });
      const envelope = await expectEnvelope(
        await client.approve(id, key.plaintext),
        403,
        'permission_denied',
      );
      expect(envelope.required).toBe('approvals:decide');
    });

    it('editing the content of an approved scheduled post sends it back for approval', async () => {
      const id = await createPending(tweet(reviewed, { status: 'scheduled', scheduledAt: inOneHour() }));
      await read(await client.approve(id));
      const rescheduled = await read(
        await client.patch(id, { scheduledAt: new Date(Date.now() + 9e6).toISOString() }),
      );
      expect(rescheduled.status).toBe('scheduled');
      const edited = await read(await client.patch(id, { content: 'New words' }));
      expect(edited.status).toBe('pending_approval');
      expect(edited.approval).toMatchObject({ status: 'pending' });
    });
  });
});
