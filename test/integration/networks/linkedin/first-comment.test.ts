import { afterEach, describe, expect, it } from 'vitest';
import type { Post } from '../../../../shared/domain/posts.js';
import type { CommentLookupRequest, CommentRequest } from '../../../../shared/ports/connector.js';
import {
  aCommentRequest,
  aCommunityAccount,
  aPost,
  aRequest,
  communityToken,
  type LinkedInWorld,
  MEMBER,
  memberToken,
  PAGE,
  pageRequest,
  startWorld,
} from './linkedin-world.js';

const MEMBER_URN = `urn:li:person:${MEMBER.sub}`;
const TEXT = 'First! Details (and slides) at #launch';

/** Publishes a post through the connector and returns it as the worker then holds it. */
async function publishedPost(
  world: LinkedInWorld,
  token: string,
  overrides: Partial<Post> = {},
): Promise<Post & { platformPostId: string }> {
  const post = aPost(overrides);
  const request =
    overrides.platformOptions === undefined
      ? aRequest(world, token, { post })
      : pageRequest(world, token, { post });
  const outcome = await world.network.connector.publish(request);
  if (outcome.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return { ...post, status: 'published', platformPostId: outcome.platformPostId };
}

function lookupFor(request: CommentRequest, since: string): CommentLookupRequest {
  return {
    post: request.post,
    account: request.account,
    ...(request.credentials && { credentials: request.credentials }),
    comment: { text: request.comment.text },
    clientReference: request.clientReference,
    since,
    signal: AbortSignal.timeout(5_000),
  };
}

const comment = (world: LinkedInWorld, request: CommentRequest) => {
  const publish = world.network.connector.publishComment;
  if (!publish) throw new Error('The LinkedIn connector takes no first comment.');
  return publish(request);
};

describe('LinkedIn first comment against the fake', () => {
  let world: LinkedInWorld;
  afterEach(() => world.stop());

  it('comments on a member post as the member, the text escaped as little text, and names the comment', async () => {
    world = await startWorld();
    const token = communityToken(world);
    const post = await publishedPost(world, token);

    const outcome = await comment(
      world,
      aCommentRequest(world, token, post, { account: aCommunityAccount() }),
    );

    const [made] = world.fake.control.comments();
    expect(made).toMatchObject({ object: post.platformPostId, actor: MEMBER_URN, publishedText: TEXT });
    expect(outcome).toEqual({
      kind: 'published',
      platformPostId: made?.urn,
      platformPostUrl: `https://www.linkedin.com/feed/update/${post.platformPostId}/?commentUrn=${encodeURIComponent(made?.urn ?? '')}`,
    });
    expect(made?.urn).toBe(`urn:li:comment:(${post.platformPostId},${made?.id})`);
    expect(world.fake.control.requests().filter((r) => r.endpoint === 'comments.create')).toHaveLength(1);
  });

  it('comments on a Page post as the Page', async () => {
    world = await startWorld();
    const token = communityToken(world);
    const post = await publishedPost(world, token, { platformOptions: { linkedin: { author: PAGE } } });

    const outcome = await comment(
      world,
      aCommentRequest(world, token, post, { account: aCommunityAccount() }),
    );

    expect(outcome.kind).toBe('published');
    expect(world.fake.control.comments()).toEqual([
      expect.objectContaining({ object: post.platformPostId, actor: PAGE, publishedText: TEXT }),
    ]);
  });

  it('fails for certain when the account lacks the comment scopes (a member app’s): the post stays published, no comment is made', async () => {
    world = await startWorld();
    const token = memberToken(world);
    const post = await publishedPost(world, token);

    const outcome = await comment(world, aCommentRequest(world, token, post));

    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_PERMISSION_DENIED',
      platformRawCode: '100',
    });
    expect(world.fake.control.comments()).toEqual([]);
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('fails for certain when the member may post for the Page but not comment for it (a content administrator)', async () => {
    world = await startWorld({
      acls: [{ member: MEMBER.sub, organization: PAGE, role: 'CONTENT_ADMINISTRATOR', state: 'APPROVED' }],
    });
    const token = communityToken(world);
    const post = await publishedPost(world, token, { platformOptions: { linkedin: { author: PAGE } } });

    const outcome = await comment(
      world,
      aCommentRequest(world, token, post, { account: aCommunityAccount() }),
    );

    expect(outcome).toMatchObject({ kind: 'failed', code: 'PLATFORM_PERMISSION_DENIED' });
    expect(world.fake.control.comments()).toEqual([]);
  });

  it('maps LinkedIn refusing the text (too long) and a server error to failed outcomes, the second retryable', async () => {
    world = await startWorld();
    const token = communityToken(world);
    const post = await publishedPost(world, token);
    const account = aCommunityAccount();

    const tooLong = await comment(
      world,
      aCommentRequest(world, token, post, { account, comment: { text: 'a'.repeat(1251), media: [] } }),
    );
    world.fake.control.failNext('comments.create', {
      kind: 'reply',
      reply: { status: 503, json: { status: 503, message: 'Service unavailable' } },
    });
    const serverError = await comment(world, aCommentRequest(world, token, post, { account }));

    expect(tooLong).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'PLATFORM_REJECTED' });
    expect(serverError).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_ERROR' });
    expect(world.fake.control.comments()).toEqual([]);
  });

  it('a Page post’s comment whose answer never came is unknown, and the look-up finds the one comment LinkedIn made', async () => {
    world = await startWorld();
    const token = communityToken(world);
    const post = await publishedPost(world, token, { platformOptions: { linkedin: { author: PAGE } } });
    const since = new Date().toISOString();
    const request = aCommentRequest(world, token, post, {
      account: aCommunityAccount(),
      signal: AbortSignal.timeout(300),
    });
    world.fake.control.failNext('comments.create', { kind: 'delayAfter', ms: 2_000 });

    const outcome = await comment(world, request);
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    const found = await world.network.connector.findComment?.(lookupFor(request, since));

    const made = world.fake.control.comments();
    expect(made).toHaveLength(1);
    expect(found).toEqual({
      kind: 'found',
      platformPostId: made[0]?.urn,
      platformPostUrl: `https://www.linkedin.com/feed/update/${post.platformPostId}/?commentUrn=${encodeURIComponent(made[0]?.urn ?? '')}`,
    });
  });

  it('the look-up takes no older comment of the same text, made before the first attempt', async () => {
    let now = Date.parse('2026-05-10T09:00:00.000Z');
    world = await startWorld({ now: () => now });
    const token = communityToken(world);
    const post = await publishedPost(world, token, { platformOptions: { linkedin: { author: PAGE } } });
    const account = aCommunityAccount();
    await comment(world, aCommentRequest(world, token, post, { account }));
    now = Date.parse('2026-05-10T10:00:00.000Z');
    const request = aCommentRequest(world, token, post, { account, signal: AbortSignal.timeout(300) });
    world.fake.control.failNext('comments.create', { kind: 'delayAfter', ms: 2_000 });

    await comment(world, request);
    const found = await world.network.connector.findComment?.(lookupFor(request, '2026-05-10T09:59:00.000Z'));

    const [older, newer] = world.fake.control.comments();
    expect(older?.text).toBe(newer?.text);
    expect(found).toMatchObject({ kind: 'found', platformPostId: newer?.urn });
  });

  it('a Page post’s comment LinkedIn never got is not_found (the worker may retry it)', async () => {
    world = await startWorld();
    const token = communityToken(world);
    const post = await publishedPost(world, token, { platformOptions: { linkedin: { author: PAGE } } });
    const since = new Date().toISOString();
    const request = aCommentRequest(world, token, post, { account: aCommunityAccount() });
    world.fake.control.failNext('comments.create', { kind: 'reset' });

    const outcome = await comment(world, request);
    const found = await world.network.connector.findComment?.(lookupFor(request, since));

    expect(outcome.kind).toBe('unknown');
    expect(found).toEqual({ kind: 'not_found' });
    expect(world.fake.control.comments()).toEqual([]);
  });

  it('a member post’s comment whose answer never came stays unknown: LinkedIn lets no app of ours read a member’s comments', async () => {
    world = await startWorld();
    const token = communityToken(world);
    const post = await publishedPost(world, token);
    const since = new Date().toISOString();
    const request = aCommentRequest(world, token, post, {
      account: aCommunityAccount(),
      signal: AbortSignal.timeout(300),
    });
    world.fake.control.failNext('comments.create', { kind: 'delayAfter', ms: 2_000 });

    const outcome = await comment(world, request);
    const found = await world.network.connector.findComment?.(lookupFor(request, since));

    expect(outcome).toMatchObject({ kind: 'unknown' });
    expect(found).toMatchObject({ kind: 'unknown' });
    expect(world.fake.control.comments()).toHaveLength(1);
    // The fake would refuse the listing anyway: no product grants r_member_social_feed.
    expect(world.fake.control.requests().filter((r) => r.endpoint === 'comments.list')).toEqual([]);
  });

  it('the look-up answers unknown when the account cannot read the Page’s comments (connected without r_organization_social_feed)', async () => {
    world = await startWorld();
    const token = communityToken(world);
    const post = await publishedPost(world, token, { platformOptions: { linkedin: { author: PAGE } } });
    const request = aCommentRequest(world, token, post, { account: aCommunityAccount() });
    await comment(world, request);
    const withoutRead = world.fake.control.issueToken(
      MEMBER.sub,
      ['r_basicprofile', 'w_member_social', 'w_organization_social', 'w_organization_social_feed'],
      world.fake.appWith('COMMUNITY_MANAGEMENT_API')?.clientId,
    );

    const found = await world.network.connector.findComment?.(
      lookupFor({ ...request, credentials: { accessToken: withoutRead } }, new Date(0).toISOString()),
    );

    expect(found).toMatchObject({ kind: 'unknown' });
  });

  it('the fake takes a comment only on a post that exists, by its author, naming the post of its path', async () => {
    world = await startWorld();
    const token = communityToken(world);
    const post = await publishedPost(world, token);
    const call = (path: string, body: unknown) =>
      fetch(`${world.fake.apiUrl}/rest/socialActions/${encodeURIComponent(path)}/comments`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'LinkedIn-Version': '202605',
          'X-Restli-Protocol-Version': '2.0.0',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    const body = { actor: MEMBER_URN, object: post.platformPostId, message: { text: 'Hi' } };

    expect((await call('urn:li:share:1', { ...body, object: 'urn:li:share:1' })).status).toBe(404);
    expect((await call(post.platformPostId, { ...body, object: 'urn:li:share:1' })).status).toBe(400);
    expect((await call(post.platformPostId, { ...body, actor: PAGE })).status).toBe(422);
    expect((await call(post.platformPostId, { ...body, content: [{ entity: { image: 'x' } }] })).status).toBe(
      422,
    );
    expect((await call(post.platformPostId, body)).status).toBe(201);
    expect(world.fake.control.comments()).toHaveLength(1);
  });
});
