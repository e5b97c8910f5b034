import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PolicyViolationError,
  ValidationFailedError,
} from '../../../../shared/domain/errors.js';
import type { WorkspacePolicies } from '../../../../shared/domain/policies.js';
import type { Post, PostStatus } from '../../../../shared/domain/posts.js';
import { makeChangePost, type PostChanges } from '../../../../shared/services/posts/change-post.js';
import { aPost } from '../../delivery/support.js';
import { aMedia } from '../../support/builders.js';
import { aServiceWorld, at, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';

const POST_ID = aPost().postId;
const IN_AN_HOUR = at(3_600_000);
const IN_TWO_HOURS = at(7_200_000);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('Expected the call to be refused.');
    },
    (error: unknown) => error,
  );
}

/** A world with one post in it (version 3, written an hour before the clock). */
async function setup(post: Partial<Post>, policies?: WorkspacePolicies) {
  const world = await aServiceWorld(policies ? { policies } : {});
  const stored = aPost({ version: 3, createdAt: at(-3_600_000), updatedAt: at(-3_600_000), ...post });
  world.posts.seed(stored);
  const change = makeChangePost(world);
  return {
    ...world,
    stored,
    current: () => world.posts.get(TENANT_ID, WORKSPACE_ID, POST_ID),
    update: (changes: PostChanges) => change.update(world.principal, WORKSPACE_ID, POST_ID, changes),
    cancel: () => change.cancel(world.principal, WORKSPACE_ID, POST_ID),
    approve: () => change.decide(world.principal, WORKSPACE_ID, POST_ID, { approve: true }),
    reject: (reason: string) =>
      change.decide(world.principal, WORKSPACE_ID, POST_ID, { approve: false, reason }),
  };
}

const scheduled = { status: 'scheduled', scheduledAt: IN_AN_HOUR } as const;

describe('change post: PATCH', () => {
  it('reschedules a scheduled post, one version on, stamped by the clock', async () => {
    const { update, current } = await setup(scheduled);

    const saved = await update({ scheduledAt: IN_TWO_HOURS });

    expect(saved).toMatchObject({
      status: 'scheduled',
      scheduledAt: IN_TWO_HOURS,
      version: 4,
      updatedAt: at(0),
    });
    expect(await current()).toEqual(saved);
  });

  it('refuses a new time that is not ahead of the clock: 400, unchanged', async () => {
    const { update, current, stored } = await setup(scheduled);

    const error = await rejection(update({ scheduledAt: at(0) }));

    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(await current()).toEqual(stored);
  });

  it('refuses an edit of a scheduled post whose time has passed while it waits: 400', async () => {
    const { update, clock, current, stored } = await setup(scheduled);
    clock.advance(3_600_000);

    const error = await rejection(update({ content: 'Too late to change' }));

    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(await current()).toEqual(stored);
  });

  it('edits a draft without any check (it may stay incomplete)', async () => {
    const { update } = await setup({ status: 'draft' });

    const saved = await update({ content: 'x'.repeat(400), postType: 'reel' });

    expect(saved).toMatchObject({ status: 'draft', content: 'x'.repeat(400), postType: 'reel' });
  });

  it('refuses a past time on a draft, even without submitting it: 400', async () => {
    const { update } = await setup({ status: 'draft' });

    expect(await rejection(update({ scheduledAt: at(-1) }))).toBeInstanceOf(InvalidRequestError);
  });

  it('submits a draft for publishing: queued, once it passes the checks', async () => {
    const { update, current } = await setup({ status: 'draft', content: 'x'.repeat(300) });

    const tooLong = await rejection(update({ status: 'publish' }));
    expect(tooLong).toBeInstanceOf(ValidationFailedError);
    expect((await current())?.status).toBe('draft');

    const saved = await update({ status: 'publish', content: 'Short now' });
    expect(saved).toMatchObject({ status: 'queued', content: 'Short now' });
  });

  it('submits a draft as scheduled only with a time ahead: 409 without one, 400 for a past one', async () => {
    const { update } = await setup({ status: 'draft' });

    const noTime = await rejection(update({ status: 'scheduled' }));
    const pastTime = await rejection(update({ status: 'scheduled', scheduledAt: at(-1) }));
    const saved = await update({ status: 'scheduled', scheduledAt: IN_AN_HOUR });

    expect(noTime).toBeInstanceOf(ConflictError);
    expect(pastTime).toBeInstanceOf(InvalidRequestError);
    expect(saved).toMatchObject({ status: 'scheduled', scheduledAt: IN_AN_HOUR });
  });

  it('submits a draft that names media not uploaded yet: 422 for publish, fine for later', async () => {
    const { update, media } = await setup({
      status: 'draft',
      postType: 'image',
      media: [{ id: aMedia().mediaId }],
    });
    await media.put(aMedia({ status: 'pending' }));

    const now = await rejection(update({ status: 'publish' }));
    const later = await update({ status: 'scheduled', scheduledAt: IN_AN_HOUR });

    expect(now).toBeInstanceOf(ValidationFailedError);
    expect(later.status).toBe('scheduled');
  });

  it("submits a draft whose account is none of the workspace's: 404 naming the account, unchanged", async () => {
    // Accounts are never deleted today; a post written before that rule, or by hand, still answers clearly.
    const gone = 'acc_01JD0000000000000000000099';
    const { update, current, stored } = await setup({ status: 'draft', accountId: gone });

    const error = await rejection(update({ status: 'publish' }));

    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toBe(`No account ${gone} in this workspace.`);
    expect(await current()).toEqual(stored);
  });

  it("submits against the workspace's policies: 403", async () => {
    const { update, current, stored } = await setup(
      { status: 'draft', content: 'Buy now' },
      { blockedTerms: ['buy now'] },
    );

    const error = await rejection(update({ status: 'publish' }));

    expect(error).toBeInstanceOf(PolicyViolationError);
    expect(await current()).toEqual(stored);
  });

  it('submits a draft in a workspace requiring approval: pending_approval, asked for now', async () => {
    const { update } = await setup({ status: 'draft' }, { requireApproval: true });

    const saved = await update({ status: 'publish' });

    expect(saved).toMatchObject({
      status: 'pending_approval',
      approval: { status: 'pending', requestedAt: at(0) },
    });
  });

  it('publishes a scheduled post now: queued, its time dropped', async () => {
    const { update } = await setup(scheduled);

    const saved = await update({ status: 'publish' });

    expect(saved.status).toBe('queued');
    expect(saved.scheduledAt).toBeUndefined();
  });

  it('unschedules back to a draft, and `scheduledAt: null` removes the time', async () => {
    const { update } = await setup(scheduled);

    const saved = await update({ status: 'draft', scheduledAt: null });

    expect(saved.status).toBe('draft');
    expect(saved.scheduledAt).toBeUndefined();
  });

  it('refuses to take the time off a post that stays scheduled: 409', async () => {
    const { update, current, stored } = await setup(scheduled);

    expect(await rejection(update({ scheduledAt: null }))).toBeInstanceOf(ConflictError);
    expect(await current()).toEqual(stored);
  });

  describe('in a workspace requiring approval', () => {
    const approved = {
      ...scheduled,
      approval: {
        status: 'approved',
        requestedAt: at(-7_200_000),
        decidedAt: at(-3_600_000),
        decidedBy: 'agt_X',
      },
    } as const;

    it('an approved scheduled post may be moved without asking again', async () => {
      const { update } = await setup(approved, { requireApproval: true });

      const saved = await update({ scheduledAt: IN_TWO_HOURS });

      expect(saved).toMatchObject({ status: 'scheduled', approval: { status: 'approved' } });
    });

    it.each([
      ['content', { content: 'New words' }],
      ['media', { media: [{ url: 'https://cdn.example.com/a.png', type: 'image' }], postType: 'image' }],
      ['a submit with new content', { status: 'scheduled', content: 'New words' }],
    ] as const)(
      'an approved scheduled post whose %s changes goes back for approval',
      async (_what, changes) => {
        const { update } = await setup(approved, { requireApproval: true });

        const saved = await update(changes as PostChanges);

        expect(saved).toMatchObject({
          status: 'pending_approval',
          approval: { status: 'pending', requestedAt: at(0) },
        });
      },
    );

    it('a post waiting for approval keeps waiting, and its request time, when edited', async () => {
      const requested = { status: 'pending', requestedAt: at(-60_000) } as const;
      const { update } = await setup(
        { status: 'pending_approval', approval: requested },
        { requireApproval: true },
      );

      const saved = await update({ content: 'Edited while in review' });

      expect(saved).toMatchObject({
        status: 'pending_approval',
        content: 'Edited while in review',
        approval: requested,
      });
    });

    it('a post waiting for approval can be withdrawn to a draft', async () => {
      const { update } = await setup({ status: 'pending_approval' }, { requireApproval: true });

      expect((await update({ status: 'draft' })).status).toBe('draft');
    });
  });

  it.each(['queued', 'publishing', 'published', 'failed', 'cancelled', 'rejected'] as const)(
    'answers 409 to any change of a %s post, changing nothing',
    async (status) => {
      const { update, current, stored } = await setup({ status });

      expect(await rejection(update({ content: 'changed' }))).toBeInstanceOf(ConflictError);
      expect(await current()).toEqual(stored);
    },
  );

  it('answers 404 to a post that is not in this workspace', async () => {
    const world = await aServiceWorld();
    world.posts.seed(aPost({ status: 'draft', workspaceId: 'wks_01JD0000000000000000000009' }));

    const error = await rejection(
      makeChangePost(world).update(world.principal, WORKSPACE_ID, POST_ID, { content: 'mine now' }),
    );

    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('answers 409 when someone else changed the post meanwhile, and keeps their change', async () => {
    const { update, posts, current, stored } = await setup(scheduled);
    posts.beforeNextUpdate(() => posts.update({ ...stored, content: 'Theirs', version: 4 }, 3));

    const error = await rejection(update({ content: 'Mine' }));

    expect(error).toBeInstanceOf(ConflictError);
    expect(await current()).toMatchObject({ content: 'Theirs', version: 4 });
  });
});

describe('change post: DELETE', () => {
  it.each(['draft', 'pending_approval', 'scheduled', 'queued'] as const)(
    'cancels a %s post, one version on',
    async (status) => {
      const { cancel, current } = await setup({ status, scheduledAt: IN_AN_HOUR });

      const saved = await cancel();

      expect(saved).toMatchObject({
        status: 'cancelled',
        version: 4,
        updatedAt: at(0),
        scheduledAt: IN_AN_HOUR,
      });
      expect(await current()).toEqual(saved);
    },
  );

  it.each(['publishing', 'published', 'failed', 'cancelled', 'rejected'] as const)(
    'answers 409 to cancelling a %s post',
    async (status: PostStatus) => {
      const { cancel, current, stored } = await setup({ status });

      expect(await rejection(cancel())).toBeInstanceOf(ConflictError);
      expect(await current()).toEqual(stored);
    },
  );

  it('answers 409 when a worker claimed the post between the read and the write', async () => {
    const { cancel, posts, current, stored } = await setup({ status: 'queued' });
    posts.beforeNextUpdate(() => posts.update({ ...stored, status: 'publishing', version: 4 }, 3));

    expect(await rejection(cancel())).toBeInstanceOf(ConflictError);
    expect((await current())?.status).toBe('publishing');
  });

  it('answers 404 to a post that does not exist', async () => {
    const world = await aServiceWorld();

    const error = await rejection(makeChangePost(world).cancel(world.principal, WORKSPACE_ID, POST_ID));

    expect(error).toBeInstanceOf(NotFoundError);
  });
});

describe('change post: approve and reject', () => {
  const pending = {
    status: 'pending_approval',
    approval: { status: 'pending', requestedAt: at(-60_000) },
  } as const;

  it('approve moves a post to publish now to queued, keeping who decided and when', async () => {
    const { approve, principal, current } = await setup(pending, { requireApproval: true });

    const saved = await approve();

    expect(saved).toMatchObject({
      status: 'queued',
      version: 4,
      approval: {
        status: 'approved',
        requestedAt: at(-60_000),
        decidedAt: at(0),
        decidedBy: principal.agent.agentId,
      },
    });
    expect(saved.approval?.reason).toBeUndefined();
    expect(await current()).toEqual(saved);
  });

  it('approve moves a post whose time is still ahead to scheduled', async () => {
    const { approve } = await setup({ ...pending, scheduledAt: IN_AN_HOUR }, { requireApproval: true });

    expect((await approve()).status).toBe('scheduled');
  });

  it('approve after the scheduled time has passed sends it now: queued', async () => {
    const { approve, clock } = await setup(
      { ...pending, scheduledAt: IN_AN_HOUR },
      { requireApproval: true },
    );
    clock.advance(3_600_000);

    expect((await approve()).status).toBe('queued');
  });

  it('reject ends the post with the reason', async () => {
    const { reject, principal } = await setup(pending, { requireApproval: true });

    const saved = await reject('Off brand');

    expect(saved).toMatchObject({
      status: 'rejected',
      approval: {
        status: 'rejected',
        reason: 'Off brand',
        decidedAt: at(0),
        decidedBy: principal.agent.agentId,
      },
    });
  });

  it('a decision on a post that never recorded its request counts from its creation', async () => {
    const { approve, stored } = await setup({ status: 'pending_approval' }, { requireApproval: true });

    expect((await approve()).approval?.requestedAt).toBe(stored.createdAt);
  });

  it.each(['draft', 'scheduled', 'queued', 'published', 'cancelled', 'rejected'] as const)(
    'answers 409 to a decision on a %s post',
    async (status) => {
      const { approve, reject, current, stored } = await setup({ status, scheduledAt: IN_AN_HOUR });

      expect(await rejection(approve())).toBeInstanceOf(ConflictError);
      expect(await rejection(reject('No'))).toBeInstanceOf(ConflictError);
      expect(await current()).toEqual(stored);
    },
  );

  it('two reviewers at once: the second answer is 409 and the first decision stands', async () => {
    const { reject, posts, current, stored } = await setup(pending, { requireApproval: true });
    posts.beforeNextUpdate(() => posts.update({ ...stored, status: 'queued', version: 4 }, 3));

    expect(await rejection(reject('Too late'))).toBeInstanceOf(ConflictError);
    expect((await current())?.status).toBe('queued');
  });

  it('answers 404 to a post that does not exist', async () => {
    const world = await aServiceWorld();

    const error = await rejection(
      makeChangePost(world).decide(world.principal, WORKSPACE_ID, POST_ID, { approve: true }),
    );

    expect(error).toBeInstanceOf(NotFoundError);
  });
});
