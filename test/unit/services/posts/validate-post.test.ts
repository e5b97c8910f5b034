import { describe, expect, it } from 'vitest';
import {
  InvalidRequestError,
  NotFoundError,
  PolicyViolationError,
  ValidationFailedError,
} from '../../../../shared/domain/errors.js';
import type { WorkspacePolicies } from '../../../../shared/domain/policies.js';
import { type CreatePostInput, makeCreatePost } from '../../../../shared/services/posts/create-post.js';
import { makeValidatePost } from '../../../../shared/services/posts/validate-post.js';
import { aMedia, anAccount } from '../../support/builders.js';
import { aServiceWorld, aTweet, at, WORKSPACE_ID } from '../../support/service-world.js';

async function setup(policies?: WorkspacePolicies) {
  const world = await aServiceWorld(policies ? { policies } : {});
  const validate = makeValidatePost(world);
  const create = makeCreatePost(world);
  return {
    ...world,
    validatePost: (input: CreatePostInput, workspaceId = WORKSPACE_ID) =>
      validate(world.principal, workspaceId, input),
    /** What a create of the same input answers: the error it throws, or undefined when it creates. */
    createRefusal: (input: CreatePostInput) =>
      create(world.principal, WORKSPACE_ID, input).then(
        () => undefined,
        (error: unknown) => error,
      ),
  };
}

describe('validate post', () => {
  it('a post a create accepts: valid, with the status it would start in, and nothing written', async () => {
    const { validatePost, posts } = await setup();

    const result = await validatePost(aTweet());

    expect(result).toEqual({ valid: true, postStatus: 'queued', errors: [] });
    expect(posts.all()).toEqual([]);
  });

  it.each([
    ['scheduled', { status: 'scheduled', scheduledAt: at(60_000) }, {}, 'scheduled'],
    ['draft', { status: 'draft' }, {}, 'draft'],
    ['publish with approval required', {}, { requireApproval: true }, 'pending_approval'],
  ] as const)('%s: postStatus %s', async (_case, input, policies, expected) => {
    const { validatePost } = await setup(policies);

    const result = await validatePost(aTweet(input));

    expect(result).toEqual({ valid: true, postStatus: expected, errors: [] });
  });

  it("a draft is valid whatever it holds but another workspace's account, as a create keeps it", async () => {
    const { validatePost } = await setup({ blockedTerms: ['spam'] });

    const result = await validatePost(
      aTweet({
        status: 'draft',
        postType: 'reel',
        content: 'spam',
        scheduledAt: at(-60_000),
      }),
    );

    expect(result).toEqual({ valid: true, postStatus: 'draft', errors: [] });
  });

  it('an account the workspace does not have is 404 not_found naming it, for a draft too, as a create answers', async () => {
    const { validatePost, createRefusal } = await setup();
    const unknown = 'acc_01JD0000000000000000000099';

    for (const status of ['draft', 'publish'] as const) {
      const input = aTweet({ status, accountId: unknown });
      const refusal = await validatePost(input).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(NotFoundError);
      expect((refusal as NotFoundError).message).toBe(`No account ${unknown} in this workspace.`);
      expect(await createRefusal(input)).toEqual(refusal);
    }
  });

  it("the network's rules and the context: the items of create's 422, nothing written", async () => {
    const { validatePost, createRefusal, media, posts, tenancy } = await setup();
    await media.put(aMedia({ status: 'pending' }));
    await tenancy.putAccount(
      anAccount({ accountId: 'acc_01JD0000000000000000000002', platform: 'linkedin' }),
    );
    const input = aTweet({
      accountId: 'acc_01JD0000000000000000000002',
      postType: 'image',
      content: 'x'.repeat(281),
      media: [{ id: aMedia().mediaId }, { id: 'med_01JD0000000000000000000099' }],
    });

    const result = await validatePost(input);
    const refusal = await createRefusal(input);

    expect(refusal).toBeInstanceOf(ValidationFailedError);
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual((refusal as ValidationFailedError).fields.errors);
    expect(result.errors.map(({ field, code }) => `${field}:${code}`)).toEqual(
      expect.arrayContaining([
        'accountId:ACCOUNT_PLATFORM_MISMATCH',
        'media[0].id:MEDIA_NOT_UPLOADED',
        'media[1].id:MEDIA_NOT_FOUND',
        'content:TEXT_TOO_LONG',
      ]),
    );
    expect(result.policyViolation).toBeUndefined();
    expect(posts.all()).toEqual([]);
  });

  it("a workspace policy: create's 403 facet, reason and message", async () => {
    const { validatePost, createRefusal } = await setup({ blockedTerms: ['guaranteed returns'] });
    const input = aTweet({ content: 'Guaranteed returns, every time!' });

    const result = await validatePost(input);
    const refusal = (await createRefusal(input)) as PolicyViolationError;

    expect(refusal).toBeInstanceOf(PolicyViolationError);
    expect(result).toEqual({
      valid: false,
      postStatus: 'queued',
      errors: [],
      policyViolation: { ...refusal.fields, message: refusal.message },
    });
  });

  it("scheduledAt not ahead: an item with create's 400 field and message", async () => {
    const { validatePost, createRefusal } = await setup();
    const input = aTweet({ status: 'scheduled', scheduledAt: at(0) });

    const result = await validatePost(input);
    const refusal = (await createRefusal(input)) as InvalidRequestError;

    expect(refusal).toBeInstanceOf(InvalidRequestError);
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      { field: 'scheduledAt', code: 'SCHEDULED_AT_IN_PAST', message: refusal.details?.scheduledAt?.[0] },
    ]);
  });

  it('every kind of problem at once, where a create answers only the first', async () => {
    const { validatePost } = await setup({ blackoutDates: ['2029-12-31'] });

    const result = await validatePost(
      aTweet({ status: 'scheduled', scheduledAt: '2029-12-31T10:00:00.000Z', postType: 'reel' }),
    );

    expect(result.errors.map(({ field, code }) => `${field}:${code}`)).toEqual(
      expect.arrayContaining(['scheduledAt:SCHEDULED_AT_IN_PAST', 'postType:POST_TYPE_NOT_ALLOWED']),
    );
    expect(result.errors[0]?.code).toBe('SCHEDULED_AT_IN_PAST');
    expect(result.policyViolation?.facet).toBe('schedule');
  });

  it('publish now outside the posting window, judged by the injected clock', async () => {
    // NOW is 12:00 UTC; the window opens at 13:00.
    const { validatePost, clock } = await setup({ postingWindow: { start: '13:00', end: '17:00' } });

    const early = await validatePost(aTweet());
    clock.advance(3_600_000);
    const inTime = await validatePost(aTweet());

    expect(early.policyViolation?.facet).toBe('schedule');
    expect(inTime.valid).toBe(true);
  });

  it('a workspace that does not exist: 404', async () => {
    const { validatePost } = await setup();

    await expect(validatePost(aTweet(), 'wks_01JD0000000000000000000099')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("a first comment on an account connected without the comments' permission: reconnect, before anything is created", async () => {
    // Prepare: a real (not sandbox) Instagram account whose grant lacks the comment scope.
    const { validatePost, tenancy, createRefusal, posts } = await setup();
    const account = 'acc_01JD0000000000000000000003';
    const withScopes = (scopes: string[]) =>
      tenancy.putAccount(anAccount({ accountId: account, platform: 'instagram', sandbox: false, scopes }));
    const post = aTweet({
      platform: 'instagram',
      accountId: account,
      postType: 'image',
      content: 'New',
      media: [{ url: 'https://cdn.example.com/a.jpg', type: 'image' }],
      firstComment: { text: 'Link in bio' },
    });
    await withScopes(['instagram_business_basic', 'instagram_business_content_publish']);

    // Act
    const refused = await validatePost(post);
    const refusedCreate = await createRefusal(post);
    await withScopes([
      'instagram_business_basic',
      'instagram_business_content_publish',
      'instagram_business_manage_comments',
    ]);
    const accepted = await validatePost(post);

    // Assess
    expect(refused.errors).toEqual([
      expect.objectContaining({ field: 'firstComment', code: 'FIRST_COMMENT_NEEDS_RECONNECT' }),
    ]);
    expect(refused.errors[0]?.message).toContain('instagram_business_manage_comments');
    expect(refusedCreate).toBeInstanceOf(ValidationFailedError);
    expect(accepted.valid).toBe(true);
    expect(posts.all()).toEqual([]);
  });

  it("options that need a permission the account's connect lacks (TikTok's inbox drafts): reconnect, before anything is created", async () => {
    const { validatePost, tenancy } = await setup();
    const account = 'acc_01JD0000000000000000000004';
    const connectWith = (scopes: string[]) =>
      tenancy.putAccount(anAccount({ accountId: account, platform: 'tiktok', sandbox: false, scopes }));
    const inbox = aTweet({
      platform: 'tiktok',
      accountId: account,
      postType: 'video',
      content: 'Draft for later',
      media: [{ url: 'https://cdn.example.com/a.mp4', type: 'video' }],
      platformOptions: { tiktok: { mode: 'inbox' } },
    });
    await connectWith(['user.info.basic', 'video.publish']);

    const refused = await validatePost(inbox);
    await connectWith(['user.info.basic', 'video.publish', 'video.upload']);
    const accepted = await validatePost(inbox);

    expect(refused.errors).toEqual([
      expect.objectContaining({ field: 'platformOptions.tiktok', code: 'PLATFORM_OPTION_NEEDS_RECONNECT' }),
    ]);
    expect(refused.errors[0]?.message).toContain('video.upload');
    expect(accepted.valid).toBe(true);
  });
});
