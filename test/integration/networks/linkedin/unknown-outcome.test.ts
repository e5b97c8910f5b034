import { afterEach, describe, expect, it } from 'vitest';
import type { LookupRequest, PublishOutcome, PublishRequest } from '../../../../shared/ports/connector.js';
import {
  aPost,
  aRequest,
  communityToken,
  type LinkedInWorld,
  MEMBER,
  memberToken,
  PAGE,
  pageRequest,
  patternBytes,
  startWorld,
  storedMedia,
} from './linkedin-world.js';

/**
 * The worker's patience in these tests; the fake holds its answer well past it. Long enough that the
 * request reaches the fake on a loaded machine (at 300 ms a busy 2-core run timed out before it was
 * sent: PLATFORM_NO_ANSWER, not the unknown outcome under test).
 */
const CLIENT_TIMEOUT_MS = 1_000;
const HELD_MS = 3_000;

function lookupFor(request: PublishRequest, outcome: PublishOutcome): LookupRequest {
  return {
    account: request.account,
    ...(request.credentials && { credentials: request.credentials }),
    post: request.post,
    clientReference: request.clientReference,
    ...('progress' in outcome && outcome.progress && { progress: outcome.progress }),
    signal: AbortSignal.timeout(5_000),
  };
}

describe('LinkedIn: a post whose answer never came', () => {
  let world: LinkedInWorld;
  afterEach(() => world.stop());

  const asPage = {
    acls: [{ member: MEMBER.sub, organization: PAGE, role: 'ADMINISTRATOR', state: 'APPROVED' as const }],
  };

  it('is unknown after the time-out, and the look-up finds the one post LinkedIn stored: no second post', async () => {
    world = await startWorld(asPage);
    const post = aPost({
      content: 'Launch day (finally) #shipit',
      platformOptions: { linkedin: { author: PAGE } },
    });
    const request = pageRequest(world, communityToken(world), {
      post,
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    world.fake.control.failNext('posts.create', { kind: 'delayAfter', ms: HELD_MS });

    const outcome = await world.network.connector.publish(request);

    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    expect(world.fake.control.posts()).toHaveLength(1);
    const found = await world.network.connector.findPublished?.(lookupFor(request, outcome));
    const [stored] = world.fake.control.posts();
    expect(found).toEqual({
      kind: 'found',
      platformPostId: stored?.id,
      platformPostUrl: `https://www.linkedin.com/feed/update/${stored?.id}/`,
    });
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('tells the post apart by its media when a newer post of the author has the same text', async () => {
    // LinkedIn's clock moves a second per call, so posts are ordered.
    let tick = 0;
    world = await startWorld({ ...asPage, now: () => Date.now() + 1000 * tick++ });
    const token = communityToken(world);
    const options = { platformOptions: { linkedin: { author: PAGE } } };
    const image = storedMedia(world.bytes, 'image', patternBytes(500, 1));
    const post = aPost({ postType: 'image', media: [image.ref], ...options });
    const request = pageRequest(world, token, {
      post,
      media: [image.delivered],
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    world.fake.control.failNext('posts.create', { kind: 'delayAfter', ms: HELD_MS });
    const outcome = await world.network.connector.publish(request);
    expect(outcome.kind).toBe('unknown');
    // Then another post with the same text and another image.
    const other = storedMedia(world.bytes, 'image', patternBytes(500, 2));
    await world.network.connector.publish(
      pageRequest(world, token, {
        post: aPost({ postId: 'pst_other', postType: 'image', media: [other.ref], ...options }),
        media: [other.delivered],
      }),
    );

    const found = await world.network.connector.findPublished?.(lookupFor(request, outcome));

    const [ours, newer] = world.fake.control.posts();
    expect(newer?.createdAt).toBeGreaterThan(ours?.createdAt ?? Infinity);
    expect(found).toMatchObject({ kind: 'found', platformPostId: ours?.id });
  });

  it('answers not_found when LinkedIn never got the post, and the retry then posts it once', async () => {
    world = await startWorld(asPage);
    const post = aPost({ platformOptions: { linkedin: { author: PAGE } } });
    const token = communityToken(world);
    const request = pageRequest(world, token, { post });
    world.fake.control.failNext('posts.create', { kind: 'reset' });

    const outcome = await world.network.connector.publish(request);
    expect(outcome.kind).toBe('unknown');
    const found = await world.network.connector.findPublished?.(lookupFor(request, outcome));
    expect(found).toEqual({ kind: 'not_found' });

    const retry = await world.network.connector.publish(
      pageRequest(world, token, {
        post,
        attempt: 2,
        ...('progress' in outcome && outcome.progress && { progress: outcome.progress }),
      }),
    );

    expect(retry.kind).toBe('published');
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('cannot tell for a member post when LinkedIn does not let the app list member posts (r_member_social): unknown, never a second post', async () => {
    world = await startWorld();
    const request = aRequest(world, memberToken(world), { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    world.fake.control.failNext('posts.create', { kind: 'delayAfter', ms: HELD_MS });

    const outcome = await world.network.connector.publish(request);
    const found = await world.network.connector.findPublished?.(lookupFor(request, outcome));

    expect(found).toMatchObject({ kind: 'unknown' });
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('finds a member post where the app holds r_member_social', async () => {
    world = await startWorld();
    const token = memberToken(world);
    world.fake.control.addScopes(token, ['r_member_social']);
    const request = aRequest(world, token, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    world.fake.control.failNext('posts.create', { kind: 'delayAfter', ms: HELD_MS });

    const outcome = await world.network.connector.publish(request);
    const found = await world.network.connector.findPublished?.(lookupFor(request, outcome));

    expect(found).toMatchObject({ kind: 'found', platformPostId: world.fake.control.posts()[0]?.id });
  });

  it('takes LinkedIn’s duplicate refusal on a retry after an unanswered attempt as the post it names', async () => {
    world = await startWorld();
    const token = memberToken(world);
    const request = aRequest(world, token, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    world.fake.control.failNext('posts.create', { kind: 'delayAfter', ms: HELD_MS });
    const outcome = await world.network.connector.publish(request);
    expect(outcome.kind).toBe('unknown');

    const retry = await world.network.connector.publish(
      aRequest(world, token, {
        attempt: 2,
        ...('progress' in outcome && outcome.progress && { progress: outcome.progress }),
      }),
    );

    const [stored] = world.fake.control.posts();
    expect(retry).toMatchObject({ kind: 'published', platformPostId: stored?.id });
    expect(world.fake.control.posts()).toHaveLength(1);
  });

  it('answers unknown when the look-up itself gets no answer', async () => {
    world = await startWorld(asPage);
    const post = aPost({ platformOptions: { linkedin: { author: PAGE } } });
    const request = pageRequest(world, communityToken(world), { post });
    world.fake.control.failNext('posts.list', { kind: 'reset' });

    const found = await world.network.connector.findPublished?.(
      lookupFor(request, { kind: 'unknown', code: 'X', message: 'x' }),
    );

    expect(found).toMatchObject({ kind: 'unknown' });
  });
});
