import { afterEach, describe, expect, it } from 'vitest';
import type { PublishOutcome, PublishProgress } from '../../../../shared/ports/connector.js';
import {
  anAccount,
  aRequest,
  type InstagramWorld,
  startWorld,
  storedMedia,
  userToken,
} from './instagram-world.js';

function progressOf(outcome: PublishOutcome): PublishProgress {
  if (outcome.kind === 'published' || !outcome.progress)
    throw new Error(`No progress in ${JSON.stringify(outcome)}`);
  return outcome.progress;
}

describe('Instagram: a time-out after the network accepted is one post, not two', () => {
  let world: InstagramWorld;
  afterEach(() => world.stop());

  it('media_publish done but its answer lost: unknown, the look-up finds the post by its container, and a retry publishes nothing more', async () => {
    world = await startWorld();
    const token = userToken(world);
    const image = storedMedia(world, 'image');
    world.fake.control.failNext('media_publish', { kind: 'delayAfter', ms: 3000 });
    const request = aRequest(world, token, 'image', [image], { signal: AbortSignal.timeout(800) });

    const outcome = await world.network.connector.publish(request);

    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    const progress = progressOf(outcome);
    expect(progress.container).toBe(world.fake.control.containers()[0]?.id);
    expect(typeof progress.publishSentAt).toBe('string');
    const [media] = world.fake.control.media();

    const found = await world.network.connector.findPublished?.({
      account: anAccount(),
      credentials: { accessToken: token },
      post: request.post,
      clientReference: request.clientReference,
      progress,
      signal: AbortSignal.timeout(5000),
    });
    expect(found).toEqual({
      kind: 'found',
      platformPostId: media?.id,
      platformPostUrl: `https://www.instagram.com/p/${media?.id}/`,
    });

    // Had the worker retried instead, the container's PUBLISHED status stops a second post.
    const retry = await world.network.connector.publish({
      ...request,
      attempt: 2,
      progress,
      signal: AbortSignal.timeout(5000),
    });
    expect(retry).toMatchObject({ kind: 'published', platformPostId: media?.id });
    expect(world.fake.control.media()).toHaveLength(1);
    expect(world.fake.control.requests().filter((r) => r.endpoint === 'media_publish')).toHaveLength(1);
  });

  it('media_publish reset before Instagram did anything: unknown, the look-up says not_found (container FINISHED), and the retry publishes that same container once', async () => {
    world = await startWorld();
    const token = userToken(world);
    const request = aRequest(world, token, 'image', [storedMedia(world, 'image')]);
    world.fake.control.failNext('media_publish', { kind: 'reset' });

    const outcome = await world.network.connector.publish(request);
    expect(outcome.kind).toBe('unknown');
    const progress = progressOf(outcome);

    const lookup = await world.network.connector.findPublished?.({
      account: anAccount(),
      credentials: { accessToken: token },
      post: request.post,
      clientReference: request.clientReference,
      progress,
      signal: AbortSignal.timeout(5000),
    });
    expect(lookup).toEqual({ kind: 'not_found' });

    const retry = await world.network.connector.publish({ ...request, attempt: 2, progress });
    expect(retry.kind).toBe('published');
    expect(world.fake.control.containers()).toHaveLength(1);
    expect(world.fake.control.media()).toHaveLength(1);
  });

  it('a look-up with no container recorded searches the recent media by caption: found when there, not_found when the list reaches back past the post', async () => {
    world = await startWorld();
    const token = userToken(world);
    const request = aRequest(world, token, 'image', [storedMedia(world, 'image')]);
    const lookup = () =>
      world.network.connector.findPublished?.({
        account: anAccount(),
        credentials: { accessToken: token },
        post: request.post,
        clientReference: request.clientReference,
        signal: AbortSignal.timeout(5000),
      });

    expect(await lookup()).toEqual({ kind: 'not_found' });
    const published = await world.network.connector.publish(request);
    expect(await lookup()).toMatchObject({
      kind: 'found',
      platformPostId: published.kind === 'published' ? published.platformPostId : 'x',
    });
  });

  it('a look-up that cannot ask (no token, or Instagram failing) is unknown, never not_found', async () => {
    world = await startWorld();
    const token = userToken(world);
    const request = aRequest(world, token, 'image', [storedMedia(world, 'image')]);
    const base = {
      account: anAccount(),
      post: request.post,
      clientReference: request.clientReference,
      progress: { v: 1, container: '17900000000000099' },
      signal: AbortSignal.timeout(5000),
    };
    expect((await world.network.connector.findPublished?.(base))?.kind).toBe('unknown');
    world.fake.control.failNext('object.get', { kind: 'reset' });
    expect(
      (await world.network.connector.findPublished?.({ ...base, credentials: { accessToken: token } }))?.kind,
    ).toBe('unknown');
  });
});
