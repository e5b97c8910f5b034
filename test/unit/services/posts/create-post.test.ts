import { decodeTime } from 'ulid';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ConflictError,
  IdempotencyKeyReusedError,
  InvalidRequestError,
  NotFoundError,
  PolicyViolationError,
  ValidationFailedError,
} from '../../../../shared/domain/errors.js';
import {
  IDEMPOTENCY_TTL_SECONDS,
  type IdempotencyRecord,
  requestFingerprint,
} from '../../../../shared/domain/idempotency.js';
import type { WorkspacePolicies } from '../../../../shared/domain/policies.js';
import { type CreatePostInput, makeCreatePost } from '../../../../shared/services/posts/create-post.js';
import { makeMemoryMetrics } from '../../../support/memory-observability.js';
import { aPost } from '../../delivery/support.js';
import { aMedia, anAccount, aWorkspace } from '../../support/builders.js';
import {
  ACCOUNT_ID,
  aServiceWorld,
  aTweet,
  at,
  NOW,
  TENANT_ID,
  WORKSPACE_ID,
} from '../../support/service-world.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('Expected the call to be refused.');
    },
    (error: unknown) => error,
  );
}

/** The codes of a 422, as `field:code`. */
function violations(error: unknown): string[] {
  expect(error).toBeInstanceOf(ValidationFailedError);
  const { errors } = (error as ValidationFailedError).fields as { errors: { field: string; code: string }[] };
  return errors.map(({ field, code }) => `${field}:${code}`);
}

function fingerprintOf(input: CreatePostInput): string {
  return requestFingerprint(`POST /v1/workspaces/${WORKSPACE_ID}/posts`, input);
}

/** The record another request's create writes for `key-1`. */
function aRecord(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return {
    tenantId: TENANT_ID,
    key: 'key-1',
    fingerprint: 'f',
    status: 201,
    body: {},
    createdAt: at(0),
    expiresAt: NOW / 1000 + IDEMPOTENCY_TTL_SECONDS,
    ...overrides,
  };
}

async function setup(policies?: WorkspacePolicies) {
  const world = await aServiceWorld(policies ? { policies } : {});
  const metrics = makeMemoryMetrics();
  const create = makeCreatePost({ ...world, metrics });
  const createPost = (input: CreatePostInput, key?: string, workspaceId = WORKSPACE_ID) =>
    create(world.principal, workspaceId, input, key);
  return { ...world, metrics, createPost };
}

describe('create post', () => {
  describe('accepts', () => {
    it('publish: 201 queued, stored with who made it and when, by the injected clock', async () => {
      const { createPost, posts, principal } = await setup();

      const created = await createPost(aTweet());

      expect(created).toEqual({
        status: 201,
        replayed: false,
        body: {
          id: expect.stringMatching(/^pst_/),
          status: 'queued',
          platform: 'twitter',
          postType: 'text',
          createdAt: at(0),
        },
      });
      expect(decodeTime(created.body.id.slice('pst_'.length))).toBe(NOW);
      expect(posts.all()).toEqual([
        {
          postId: created.body.id,
          tenantId: TENANT_ID,
          workspaceId: WORKSPACE_ID,
          accountId: ACCOUNT_ID,
          platform: 'twitter',
          postType: 'text',
          content: 'Hello from the unit tests',
          media: [],
          status: 'queued',
          createdAt: at(0),
          updatedAt: at(0),
          attempts: 0,
          createdBy: principal.agent.agentId,
          version: 1,
        },
      ]);
    });

    it('scheduled: kept with its time, one millisecond ahead being enough', async () => {
      const { createPost, posts } = await setup();

      const created = await createPost(aTweet({ status: 'scheduled', scheduledAt: at(1) }));

      expect(created.body.status).toBe('scheduled');
      expect(posts.all()[0]).toMatchObject({ status: 'scheduled', scheduledAt: at(1) });
    });

    it("draft: kept even when it breaks every rule but its account's", async () => {
      const { createPost, posts } = await setup({ blockedTerms: ['spam'] });

      const created = await createPost(
        aTweet({
          status: 'draft',
          postType: 'reel',
          content: `spam ${'x'.repeat(400)}`,
          scheduledAt: at(-60_000),
          media: [{ id: 'med_01JD0000000000000000000099' }],
        }),
      );

      expect(created.body.status).toBe('draft');
      expect(posts.all()[0]).toMatchObject({ status: 'draft', scheduledAt: at(-60_000) });
    });

    it('scheduled with media still pending: it only has to be uploaded by delivery time', async () => {
      const { createPost, media } = await setup();
      await media.put(aMedia({ status: 'pending' }));

      const created = await createPost(
        aTweet({
          status: 'scheduled',
          scheduledAt: at(3_600_000),
          postType: 'image',
          media: [{ id: aMedia().mediaId }],
        }),
      );

      expect(created.body.status).toBe('scheduled');
    });

    it('publish with uploaded media and URL media', async () => {
      const { createPost, media, posts } = await setup();
      await media.put(aMedia());

      await createPost(
        aTweet({
          postType: 'image',
          media: [{ id: aMedia().mediaId }, { url: 'https://cdn.example.com/a.png', type: 'image' }],
        }),
      );

      expect(posts.all()[0]?.media).toEqual([
        { id: aMedia().mediaId },
        { url: 'https://cdn.example.com/a.png', type: 'image' },
      ]);
    });
  });

  describe('with approval required', () => {
    it.each([
      ['publish', {}],
      ['scheduled', { scheduledAt: at(3_600_000) }],
    ] as const)('%s waits in pending_approval, asked for now', async (status, extra) => {
      const { createPost, posts } = await setup({ requireApproval: true });

      const created = await createPost(aTweet({ status, ...extra }));

      expect(created.body.status).toBe('pending_approval');
      expect(posts.all()[0]?.approval).toEqual({ status: 'pending', requestedAt: at(0) });
    });

    it('a draft stays a draft, with no approval asked yet', async () => {
      const { createPost, posts } = await setup({ requireApproval: true });

      await createPost(aTweet({ status: 'draft' }));

      expect(posts.all()[0]?.status).toBe('draft');
      expect(posts.all()[0]?.approval).toBeUndefined();
    });
  });

  describe('refuses, writing nothing', () => {
    it('a workspace that does not exist: 404', async () => {
      const { createPost, posts } = await setup();

      const error = await rejection(createPost(aTweet(), undefined, 'wks_01JD0000000000000000000099'));

      expect(error).toBeInstanceOf(NotFoundError);
      expect(posts.all()).toEqual([]);
    });

    it.each([at(0), at(-1)])(
      'scheduledAt not ahead of the clock (%s): 400 naming scheduledAt',
      async (when) => {
        const { createPost, posts } = await setup();

        const error = await rejection(createPost(aTweet({ status: 'scheduled', scheduledAt: when })));

        expect(error).toBeInstanceOf(InvalidRequestError);
        expect((error as InvalidRequestError).details).toHaveProperty('scheduledAt');
        expect(posts.all()).toEqual([]);
      },
    );

    it("the network's rules: 422 with every violation at once", async () => {
      const { createPost, posts } = await setup();

      const error = await rejection(
        createPost(aTweet({ postType: 'thread', content: [{ text: 'x'.repeat(281) }, { text: 'ok' }] })),
      );

      expect(violations(error)).toContain('content[0].text:TEXT_TOO_LONG');
      const other = await rejection(createPost(aTweet({ postType: 'reel' })));
      expect(violations(other)).toContain('postType:POST_TYPE_NOT_ALLOWED');
      expect(posts.all()).toEqual([]);
    });

    it('an account missing from the workspace is 404 not_found naming it, drafts included; nothing written', async () => {
      const { createPost, posts } = await setup();
      const unknown = 'acc_01JD0000000000000000000099';

      const post = await rejection(createPost(aTweet({ accountId: unknown })));
      const draft = await rejection(createPost(aTweet({ accountId: unknown, status: 'draft' })));

      for (const error of [post, draft]) {
        expect(error).toBeInstanceOf(NotFoundError);
        expect((error as NotFoundError).message).toBe(`No account ${unknown} in this workspace.`);
      }
      expect(posts.all()).toEqual([]);
    });

    it('an account disconnected, or of another network: 422', async () => {
      const { createPost, tenancy, posts } = await setup();
      const disconnected = 'acc_01JD0000000000000000000001';
      const linkedin = 'acc_01JD0000000000000000000002';
      await tenancy.putAccount(anAccount({ accountId: disconnected, status: 'disconnected' }));
      await tenancy.putAccount(anAccount({ accountId: linkedin, platform: 'linkedin' }));

      const gone = await rejection(createPost(aTweet({ accountId: disconnected })));
      const mismatch = await rejection(createPost(aTweet({ accountId: linkedin })));

      expect(violations(gone)).toEqual(['accountId:ACCOUNT_DISCONNECTED']);
      expect(violations(mismatch)).toEqual(['accountId:ACCOUNT_PLATFORM_MISMATCH']);
      expect(posts.all()).toEqual([]);
    });

    it('publish with media that is missing or not uploaded yet: 422 naming each', async () => {
      const { createPost, media, posts } = await setup();
      await media.put(aMedia({ status: 'pending' }));
      await media.put(
        aMedia({ mediaId: 'med_01JD0000000000000000000001', workspaceId: 'wks_01JD0000000000000000000009' }),
      );

      const error = await rejection(
        createPost(
          aTweet({
            postType: 'image',
            media: [{ id: aMedia().mediaId }, { id: 'med_01JD0000000000000000000001' }],
          }),
        ),
      );

      expect(violations(error)).toEqual(['media[0].id:MEDIA_NOT_UPLOADED', 'media[1].id:MEDIA_NOT_FOUND']);
      expect(posts.all()).toEqual([]);
    });

    it.each([
      ['platform', { allowedPlatforms: ['linkedin'] }, {}],
      ['content', { blockedTerms: ['guaranteed returns'] }, { content: 'Guaranteed returns, every time!' }],
      [
        'schedule',
        { blackoutDates: ['2030-01-02'] },
        { status: 'scheduled', scheduledAt: '2030-01-02T10:00:00.000Z' },
      ],
      [
        'media',
        { requireAltText: true },
        { postType: 'image', media: [{ url: 'https://cdn.example.com/a.png', type: 'image' }] },
      ],
    ] as const)('a workspace policy, facet %s: 403', async (facet, policies, input) => {
      const { createPost, posts } = await setup(policies as WorkspacePolicies);

      const error = await rejection(createPost(aTweet(input as Partial<CreatePostInput>)));

      expect(error).toBeInstanceOf(PolicyViolationError);
      expect((error as PolicyViolationError).fields).toMatchObject({ facet, reason: expect.any(String) });
      expect(posts.all()).toEqual([]);
    });

    it('publish now outside the posting window, judged by the injected clock', async () => {
      // NOW is 12:00 UTC; the window opens at 13:00.
      const { createPost, clock, posts } = await setup({ postingWindow: { start: '13:00', end: '17:00' } });

      const early = await rejection(createPost(aTweet()));
      clock.advance(3_600_000);
      const inTime = await createPost(aTweet());

      expect((early as PolicyViolationError).fields.facet).toBe('schedule');
      expect(inTime.body.status).toBe('queued');
      expect(posts.all()).toHaveLength(1);
    });
  });

  describe('Idempotency-Key', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('the first request stores its answer for 24 hours with the post', async () => {
      const { createPost, posts } = await setup();

      const created = await createPost(aTweet(), 'key-1');

      expect(posts.storedIdempotencyRecord(TENANT_ID, 'key-1')).toEqual({
        tenantId: TENANT_ID,
        key: 'key-1',
        fingerprint: fingerprintOf(aTweet()),
        status: 201,
        body: created.body,
        createdAt: at(0),
        expiresAt: NOW / 1000 + IDEMPOTENCY_TTL_SECONDS,
      });
    });

    it('the same request again replays the first answer and creates nothing', async () => {
      const { createPost, posts, clock } = await setup();
      const first = await createPost(aTweet(), 'key-1');
      clock.advance(60_000);

      const sameInAnotherOrder = Object.fromEntries(Object.entries(aTweet()).reverse()) as CreatePostInput;
      const again = await createPost(sameInAnotherOrder, 'key-1');

      expect(again).toEqual({ ...first, replayed: true });
      expect(posts.all()).toHaveLength(1);
    });

    it('the same key with another body: 422, nothing created', async () => {
      const { createPost, posts } = await setup();
      await createPost(aTweet(), 'key-1');

      const error = await rejection(createPost(aTweet({ content: 'Something else' }), 'key-1'));

      expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
      expect(posts.all()).toHaveLength(1);
    });

    it('the same key to another workspace is another request: 422', async () => {
      const { createPost, tenancy } = await setup();
      await tenancy.putWorkspace(aWorkspace({ workspaceId: 'wks_01JD0000000000000000000002' }));
      await createPost(aTweet(), 'key-1');

      const error = await rejection(createPost(aTweet(), 'key-1', 'wks_01JD0000000000000000000002'));

      expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    });

    it('a key is forgotten after 24 hours, even while its record is still stored', async () => {
      const { createPost, posts, clock } = await setup();
      const first = await createPost(aTweet(), 'key-1');
      clock.advance((IDEMPOTENCY_TTL_SECONDS + 1) * 1000);

      const later = await createPost(aTweet(), 'key-1');

      expect(later.replayed).toBe(false);
      expect(later.body.id).not.toBe(first.body.id);
      expect(posts.all()).toHaveLength(2);
    });

    it('a request that failed its checks records nothing, so a corrected retry may use the key', async () => {
      const { createPost, posts } = await setup();
      await rejection(createPost(aTweet({ postType: 'reel' }), 'key-1'));

      const fixed = await createPost(aTweet(), 'key-1');

      expect(fixed.replayed).toBe(false);
      expect(posts.all()).toHaveLength(1);
    });

    it('counts a new post in PostsCreated by platform, never a replay or a refused request', async () => {
      const { createPost, metrics } = await setup();

      await createPost(aTweet(), 'key-1');
      await createPost(aTweet(), 'key-1');
      await rejection(createPost(aTweet({ content: 'Another' }), 'key-1'));
      await rejection(createPost(aTweet({ postType: 'reel' })));

      expect(metrics.points).toEqual([
        { name: 'PostsCreated', value: 1, unit: 'count', dimensions: { platform: 'twitter' } },
      ]);
    });

    it("a lost race replays the winner's answer once it commits", async () => {
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      const { createPost, posts, metrics } = await setup();
      const winnerBody = {
        id: 'pst_01JD0000000000000000000042',
        status: 'queued',
        platform: 'twitter',
        postType: 'text',
        createdAt: at(0),
      };
      const winner = posts.beginConcurrentCreate(
        aPost({ postId: winnerBody.id }),
        aRecord({ fingerprint: fingerprintOf(aTweet()), body: winnerBody }),
      );

      const loser = createPost(aTweet(), 'key-1');
      await vi.advanceTimersByTimeAsync(0);
      winner.commit();
      await vi.advanceTimersByTimeAsync(50);

      expect(await loser).toEqual({ status: 201, body: winnerBody, replayed: true });
      expect(posts.all().map((post) => post.postId)).toEqual([winnerBody.id]);
      expect(metrics.points).toEqual([]);
    });

    it('a lost race against a winner with another body: 422', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      const { createPost, posts } = await setup();
      const winner = posts.beginConcurrentCreate(aPost(), aRecord({ fingerprint: 'another body' }));

      const loser = rejection(createPost(aTweet(), 'key-1'));
      await vi.advanceTimersByTimeAsync(0);
      winner.commit();
      await vi.advanceTimersByTimeAsync(50);

      expect(await loser).toBeInstanceOf(IdempotencyKeyReusedError);
      expect(posts.all().map((post) => post.postId)).toEqual([aPost().postId]);
    });

    it('a lost race whose winner never shows answers 409 conflict (retry for the answer), having written nothing', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      const { createPost, posts } = await setup();
      posts.beginConcurrentCreate(aPost(), aRecord());

      const outcome = rejection(createPost(aTweet(), 'key-1'));
      await vi.advanceTimersByTimeAsync(60_000);

      const error = await outcome;
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).status).toBe(409);
      expect(posts.all()).toEqual([]);
    });
  });
});
