import { describe, expect, it } from 'vitest';
import { ValidationFailedError } from '../../../../shared/domain/errors.js';
import type { WorkspacePolicies } from '../../../../shared/domain/policies.js';
import type { Post } from '../../../../shared/domain/posts.js';
import { makeChangePost, type PostChanges } from '../../../../shared/services/posts/change-post.js';
import { type CreatePostInput, makeCreatePost } from '../../../../shared/services/posts/create-post.js';
import { makeValidatePost } from '../../../../shared/services/posts/validate-post.js';
import { aPost } from '../../delivery/support.js';
import { anAccount } from '../../support/builders.js';
import { aServiceWorld, aTweet, at, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';

/** platformOptions through create, validate and PATCH, on the in-memory stores. */

const POST_ID = aPost().postId;
const IN_AN_HOUR = at(3_600_000);
const MISMATCH = {
  field: 'platformOptions.linkedin',
  code: 'PLATFORM_OPTIONS_MISMATCH',
  message: expect.stringContaining('platformOptions.twitter'),
};

async function setup(options: { policies?: WorkspacePolicies; post?: Partial<Post> } = {}) {
  const world = await aServiceWorld(options.policies ? { policies: options.policies } : {});
  if (options.post) {
    world.posts.seed(aPost({ version: 3, createdAt: at(-60_000), updatedAt: at(-60_000), ...options.post }));
  }
  const change = makeChangePost(world);
  return {
    ...world,
    create: (input: CreatePostInput) => makeCreatePost(world)(world.principal, WORKSPACE_ID, input),
    validate: (input: CreatePostInput) => makeValidatePost(world)(world.principal, WORKSPACE_ID, input),
    update: (changes: PostChanges) => change.update(world.principal, WORKSPACE_ID, POST_ID, changes),
    approve: () => change.decide(world.principal, WORKSPACE_ID, POST_ID, { approve: true }),
    current: () => world.posts.get(TENANT_ID, WORKSPACE_ID, POST_ID),
  };
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('Expected the call to be refused.');
    },
    (error: unknown) => error,
  );
}

describe('platformOptions on create and validate', () => {
  it('stores the options of the post’s own network', async () => {
    const { create, posts } = await setup();

    await create(aTweet({ platformOptions: { twitter: { replySettings: 'mentionedUsers' } } }));

    expect(posts.all().map((post) => post.platformOptions)).toEqual([
      { twitter: { replySettings: 'mentionedUsers' } },
    ]);
  });

  it('stores no options when none are given', async () => {
    const { create, posts } = await setup();

    await create(aTweet());

    expect(posts.all()[0]).not.toHaveProperty('platformOptions');
  });

  it('refuses another network’s options with 422, and validate reports the same item', async () => {
    const { create, validate, posts } = await setup();
    const input = aTweet({ platformOptions: { linkedin: { visibility: 'CONNECTIONS' } } });

    const error = await refusal(create(input));
    const validation = await validate(input);

    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).fields.errors).toEqual([MISMATCH]);
    expect(validation).toEqual({ valid: false, postStatus: 'queued', errors: [MISMATCH] });
    expect(posts.all()).toEqual([]);
  });

  it('keeps a draft with another network’s options, as it keeps any draft, and refuses it on submit', async () => {
    const { create, posts } = await setup();
    const draft = aTweet({ status: 'draft', platformOptions: { linkedin: {} } });

    await create(draft);

    expect(posts.all().map((post) => post.status)).toEqual(['draft']);
  });

  it('reports the mismatch after the network’s own rules', async () => {
    const { validate } = await setup();

    const validation = await validate(
      aTweet({ content: 'x'.repeat(300), platformOptions: { linkedin: { author: 'member' } } }),
    );

    expect(validation.errors.map((item) => item.code)).toEqual([
      'TEXT_TOO_LONG',
      'PLATFORM_OPTIONS_MISMATCH',
    ]);
  });
});

describe('platformOptions on PATCH', () => {
  const withOptions = { twitter: { replySettings: 'following' as const } };

  it('replaces the post’s options with those given', async () => {
    const { update, current } = await setup({
      post: { status: 'draft', platformOptions: withOptions },
    });

    await update({ platformOptions: { twitter: { replySettings: 'verified' } } });

    expect((await current())?.platformOptions).toEqual({ twitter: { replySettings: 'verified' } });
  });

  it('removes them with null', async () => {
    const { update, current } = await setup({
      post: { status: 'scheduled', scheduledAt: IN_AN_HOUR, platformOptions: withOptions },
    });

    const saved = await update({ platformOptions: null });

    expect(saved.status).toBe('scheduled');
    expect(await current()).not.toHaveProperty('platformOptions');
  });

  it('keeps them through a change of something else', async () => {
    const { update, current } = await setup({
      post: { status: 'scheduled', scheduledAt: IN_AN_HOUR, platformOptions: withOptions },
    });

    await update({ content: 'Edited' });

    expect((await current())?.platformOptions).toEqual(withOptions);
  });

  it('refuses another network’s options on a scheduled post with 422, unchanged', async () => {
    const stored = { status: 'scheduled' as const, scheduledAt: IN_AN_HOUR };
    const { update, current } = await setup({ post: stored });
    const before = await current();

    const error = await refusal(update({ platformOptions: { linkedin: { visibility: 'PUBLIC' } } }));

    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).fields.errors).toEqual([MISMATCH]);
    expect(await current()).toEqual(before);
  });

  it('refuses to submit a draft holding another network’s options, and takes it once they are fixed', async () => {
    const { update } = await setup({ post: { status: 'draft', platformOptions: { linkedin: {} } } });

    const error = await refusal(update({ status: 'publish' }));
    const saved = await update({ status: 'publish', platformOptions: withOptions });

    expect((error as ValidationFailedError).fields.errors).toEqual([MISMATCH]);
    expect(saved).toMatchObject({ status: 'queued', platformOptions: withOptions });
  });

  it('sends an approved post back to review when its options change, as a content change does', async () => {
    const { update } = await setup({
      policies: { requireApproval: true },
      post: { status: 'scheduled', scheduledAt: IN_AN_HOUR, platformOptions: withOptions },
    });

    const saved = await update({ platformOptions: { twitter: { replySettings: 'subscribers' } } });

    expect(saved.status).toBe('pending_approval');
    expect(saved.approval).toEqual({ status: 'pending', requestedAt: at(0) });
  });

  it('keeps an approved post scheduled when the same options come back in another key order', async () => {
    const linkedInAccount = 'acc_01JD0000000000000000000001';
    const { update, tenancy } = await setup({
      policies: { requireApproval: true },
      post: {
        platform: 'linkedin',
        accountId: linkedInAccount,
        status: 'scheduled',
        scheduledAt: IN_AN_HOUR,
        platformOptions: { linkedin: { visibility: 'PUBLIC', author: 'urn:li:organization:5' } },
      },
    });
    await tenancy.putAccount(anAccount({ accountId: linkedInAccount, platform: 'linkedin' }));

    const saved = await update({
      platformOptions: { linkedin: { author: 'urn:li:organization:5', visibility: 'PUBLIC' } },
      scheduledAt: at(7_200_000),
    });

    expect(saved).toMatchObject({ status: 'scheduled', scheduledAt: at(7_200_000) });
  });
});
