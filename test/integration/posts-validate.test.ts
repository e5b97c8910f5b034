import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { fixedClock } from '../../shared/ports/clock.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import {
  POLICED_WORKSPACE,
  POLICY_FACET_CASES,
  postsClient,
  seedMedia,
  tweet,
} from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * POST .../posts/validate over HTTP: the checks of a create on the same body, answered 200 with
 * what a create would refuse (compared with a real create of each body), and nothing written.
 */

// 20 s into a minute, on a clock that stands still: every request falls in one rate-limit window.
const START = Date.UTC(2030, 0, 7, 12, 0, 20);
const inOneHour = new Date(START + 3_600_000).toISOString();

interface Validation {
  valid: boolean;
  postStatus: string;
  errors: { field: string; code: string; message: string; limit?: number }[];
  policyViolation?: { facet: string; reason: string; message: string };
}

describe('POST /v1/workspaces/{workspace_id}/posts/validate', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;
  let db: ReturnType<typeof makeDocumentClient>;

  const validateAs = (owner: BootstrapResult, body: unknown, init: { apiKey?: string } = {}) =>
    host.call(`/v1/workspaces/${owner.workspaceId}/posts/validate`, {
      method: 'POST',
      apiKey: init.apiKey ?? owner.apiKey,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const validate = (body: unknown) => validateAs(tenant, body);
  const validation = async (response: Response) => {
    expect(response.status).toBe(200);
    return (await response.json()) as Validation;
  };
  const idempotencyRecords = async () =>
    (await db.send(new ScanCommand({ TableName: host.config.tables.idempotency }))).Items ?? [];
  const postIds = async (client: ReturnType<typeof postsClient>) =>
    ((await (await client.list()).json()) as { data: { id: string }[] }).data.map((post) => post.id);

  beforeAll(async () => {
    host = await startTestHost({ clock: fixedClock(START) });
    tenant = await host.admin.bootstrap({ name: 'Validate' });
    posts = postsClient(host, tenant);
    db = makeDocumentClient(
      makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
    );
  });
  afterAll(async () => {
    db.destroy();
    await host.stop();
  });

  describe('a body a create accepts', () => {
    it('is valid, and writes no post and no idempotency record; a create of it then succeeds', async () => {
      // Prepare
      const before = await postIds(posts);

      // Act
      const response = await validateAs(tenant, tweet(tenant), {});
      const keyed = await host.call(`${posts.base}/validate`, {
        method: 'POST',
        apiKey: tenant.apiKey,
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'validate-key' },
        body: JSON.stringify(tweet(tenant)),
      });

      // Assess
      expect(await validation(response)).toEqual({ valid: true, postStatus: 'queued', errors: [] });
      expect((await validation(keyed)).valid).toBe(true);
      expect(keyed.headers.get('idempotent-replayed')).toBeNull();
      expect(await postIds(posts)).toEqual(before);
      expect(await idempotencyRecords()).toEqual([]);
      // The key the validate carried is still free: a create with another body is not a reuse.
      const created = await posts.create(tweet(tenant, { content: 'another' }), {
        'Idempotency-Key': 'validate-key',
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('idempotent-replayed')).toBeNull();
      const plain = await posts.create(tweet(tenant));
      expect(plain.status).toBe(201);
      expect(await postIds(posts)).toHaveLength(before.length + 2);
    });

    it.each([
      ['scheduled', { status: 'scheduled', scheduledAt: inOneHour }, 'scheduled'],
      ['a draft, even one that breaks the rules', { status: 'draft', content: 'x'.repeat(300) }, 'draft'],
    ])('%s: valid, with the status a create gives it', async (_case, overrides, status) => {
      // Act
      const result = await validation(await validate(tweet(tenant, overrides)));
      const created = (await (await posts.create(tweet(tenant, overrides))).json()) as { status: string };

      // Assess
      expect(result).toEqual({ valid: true, postStatus: status, errors: [] });
      expect(created.status).toBe(status);
    });

    it('names pending_approval in a workspace that requires approval', async () => {
      // Prepare
      const review = await host.admin.bootstrap({ name: 'Review' });
      await host.deps.tenancy.setWorkspacePolicies(review.tenantId, review.workspaceId, {
        requireApproval: true,
      });

      // Act
      const result = await validation(await validateAs(review, tweet(review)));

      // Assess
      expect(result).toEqual({ valid: true, postStatus: 'pending_approval', errors: [] });
    });
  });

  describe('answers 200 valid:false with what a create of the same body refuses, writing nothing', () => {
    /** The validate's errors[] and the create's 422 errors[] for one body. */
    const bothRuleAnswers = async (body: unknown) => {
      const result = await validation(await validate(body));
      const refused = await expectEnvelope(await posts.create(body), 422, 'VALIDATION_FAILED');
      return { result, createErrors: refused.errors };
    };

    it.each([
      [
        'text too long for the network',
        (t: BootstrapResult) => tweet(t, { content: 'x'.repeat(300) }),
        'content:TEXT_TOO_LONG',
      ],
      [
        'a postType the network does not have',
        (t: BootstrapResult) => tweet(t, { postType: 'reel' }),
        'postType:POST_TYPE_NOT_ALLOWED',
      ],
      [
        'unknown media',
        (t: BootstrapResult) =>
          tweet(t, { postType: 'image', media: [{ id: 'med_01JD0000000000000000000099' }] }),
        'media[0].id:MEDIA_NOT_FOUND',
      ],
    ])('%s: the items of the 422', async (_case, body, expected) => {
      // Prepare
      const before = await postIds(posts);

      // Act
      const { result, createErrors } = await bothRuleAnswers(body(tenant));

      // Assess
      expect(result.valid).toBe(false);
      expect(result.errors.map(({ field, code }) => `${field}:${code}`)).toContain(expected);
      expect(result.errors).toEqual(createErrors);
      expect(result.policyViolation).toBeUndefined();
      expect(await postIds(posts)).toEqual(before);
    });

    it('media still pending on publish, and a disconnected account: every item of the 422', async () => {
      // Prepare
      const pending = await seedMedia(host, tenant, 'image/png', 'pending');
      const account = await host.admin.createSandboxAccount({
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        platform: 'twitter',
      });
      await host.deps.tenancy.putAccount({ ...account, status: 'disconnected' });

      // Act
      const { result, createErrors } = await bothRuleAnswers(
        tweet(tenant, { accountId: account.accountId, postType: 'image', media: [{ id: pending }] }),
      );

      // Assess
      expect(result.errors.map(({ field, code }) => `${field}:${code}`)).toEqual([
        'accountId:ACCOUNT_DISCONNECTED',
        'media[0].id:MEDIA_NOT_UPLOADED',
      ]);
      expect(result.errors).toEqual(createErrors);
    });

    it("scheduledAt in the past: an item with the 400's field and message", async () => {
      // Prepare
      const body = tweet(tenant, { status: 'scheduled', scheduledAt: '2020-01-01T00:00:00Z' });

      // Act
      const result = await validation(await validate(body));
      const refused = await expectEnvelope(await posts.create(body), 400, 'INVALID_REQUEST');

      // Assess
      const details = refused.details as Record<string, string[]>;
      expect(result).toEqual({
        valid: false,
        postStatus: 'scheduled',
        errors: [{ field: 'scheduledAt', code: 'SCHEDULED_AT_IN_PAST', message: details.scheduledAt?.[0] }],
      });
      expect(Object.keys(details)).toEqual(['scheduledAt']);
    });

    describe('a workspace policy', () => {
      let policed: BootstrapResult;
      let client: ReturnType<typeof postsClient>;

      beforeAll(async () => {
        policed = await host.admin.bootstrap({ name: 'Policed' });
        client = postsClient(host, policed);
        await host.deps.tenancy.setWorkspacePolicies(
          policed.tenantId,
          policed.workspaceId,
          POLICED_WORKSPACE,
        );
      });

      it.each(POLICY_FACET_CASES)("facet %s: the 403's facet, reason and message", async (facet, body) => {
        // Act
        const result = await validation(await validateAs(policed, body(policed)));
        const refused = await expectEnvelope(await client.create(body(policed)), 403, 'policy_violation');

        // Assess
        expect(result.valid).toBe(false);
        expect(result.errors).toEqual([]);
        expect(result.policyViolation).toEqual({
          facet,
          reason: refused.reason,
          message: refused.message,
        });
        expect(await postIds(client)).toEqual([]);
      });

      it('reports a broken rule and a broken policy at once, where a create names only the rule', async () => {
        // Act
        const result = await validation(
          await validateAs(policed, tweet(policed, { content: `Guaranteed returns ${'x'.repeat(300)}` })),
        );

        // Assess
        expect(result.errors.map(({ code }) => code)).toEqual(['TEXT_TOO_LONG']);
        expect(result.policyViolation?.facet).toBe('content');
      });
    });
  });

  describe('refuses', () => {
    it('a body that fails the schema: 400 INVALID_REQUEST naming the field, as a create does', async () => {
      // Act
      const response = await validate(tweet(tenant, { platform: 'myspace' }));
      const created = await posts.create(tweet(tenant, { platform: 'myspace' }));

      // Assess
      const envelope = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      const createEnvelope = await expectEnvelope(created, 400, 'INVALID_REQUEST');
      expect(envelope.details).toEqual(createEnvelope.details);
      expect(Object.keys(envelope.details as object)).toEqual(['platform']);
    });

    it('a key without posts:write: 403 permission_denied', async () => {
      // Prepare
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        {
          tenantId: tenant.tenantId,
          name: 'Reader',
          fromWorkspaceId: tenant.workspaceId,
          permissions: ['posts:read', 'accounts:read', 'media:write'],
        },
      );
      const key = await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });

      // Act
      const response = await validateAs(tenant, tweet(tenant), { apiKey: key.plaintext });

      // Assess
      const envelope = await expectEnvelope(response, 403, 'permission_denied');
      expect(envelope.required).toBe('posts:write');
    });

    it("another tenant's workspace: 404, telling nothing of its rules", async () => {
      // Prepare
      const stranger = await host.admin.bootstrap({ name: 'Stranger' });

      // Act
      const response = await host.call(`${posts.base}/validate`, {
        method: 'POST',
        apiKey: stranger.apiKey,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(tweet(tenant, { content: 'x'.repeat(300) })),
      });

      // Assess
      await expectEnvelope(response, 404, 'not_found');
    });
  });

  describe('rate limit', () => {
    it('counts in the "other" family and leaves the post-creation bucket alone', async () => {
      // Prepare
      const fresh = await host.admin.bootstrap({ name: 'Counted' });
      const client = postsClient(host, fresh);
      const remaining = (response: Response) => Number(response.headers.get('x-ratelimit-remaining'));
      const firstCreate = await client.create(tweet(fresh, { status: 'draft' }));
      const accounts = await host.call(`/v1/workspaces/${fresh.workspaceId}/accounts`, {
        apiKey: fresh.apiKey,
      });

      // Act
      const first = await validateAs(fresh, tweet(fresh));
      const second = await validateAs(fresh, tweet(fresh));
      const thirdCreate = await client.create(tweet(fresh, { status: 'draft' }));

      // Assess: limits are per minute (the clock stands still) and per family.
      expect(firstCreate.headers.get('x-ratelimit-limit')).toBe('120');
      expect(first.headers.get('x-ratelimit-limit')).toBe('600');
      expect(first.headers.get('x-ratelimit-limit')).toBe(accounts.headers.get('x-ratelimit-limit'));
      expect(remaining(first)).toBe(remaining(accounts) - 1);
      expect(remaining(second)).toBe(remaining(first) - 1);
      expect(remaining(thirdCreate)).toBe(remaining(firstCreate) - 1);
    });
  });
});
