import { afterEach, describe, expect, it } from 'vitest';
import {
  aRequest,
  pngBytes,
  published,
  publishUntilSettled,
  startWorld,
  storedMedia,
  type ThreadsWorld,
  threadContent,
  USER,
  userToken,
} from './threads-world.js';

describe('Threads publishing against the fake', () => {
  let world: ThreadsWorld;
  afterEach(() => world.stop());

  it('publishes a text post: limit read, TEXT container, status, threads_publish, permalink; the bearer token on every call', async () => {
    world = await startWorld();
    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), {
        postType: 'text',
        content: 'Hello Threads 👋',
        platformOptions: { threads: { replyControl: 'accounts_you_follow', topicTag: 'Fakes' } },
      }),
    );

    const [post] = world.fake.control.posts();
    expect(published(outcome)).toEqual({
      kind: 'published',
      platformPostId: post?.id,
      platformPostUrl: post?.permalink,
    });
    expect(post).toMatchObject({
      mediaType: 'TEXT_POST',
      text: 'Hello Threads 👋',
      replyControl: 'accounts_you_follow',
      topicTag: 'Fakes',
    });
    expect(world.fake.control.requests().map((r) => r.endpoint)).toEqual([
      'threads_publishing_limit',
      'threads.create',
      'object.get',
      'threads_publish',
      'object.get',
    ]);
    expect(world.fake.control.requests().every((r) => r.authorized && r.path.startsWith('/v1.0/'))).toBe(
      true,
    );
  });

  it('publishes a text post with its link card (link_attachment) on the TEXT container', async () => {
    world = await startWorld();
    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), {
        postType: 'text',
        content: 'Read the notes',
        platformOptions: { threads: { linkAttachment: 'https://example.com/notes' } },
      }),
    );
    published(outcome);
    expect(world.fake.control.containers()[0]?.params).toMatchObject({
      media_type: 'TEXT',
      link_attachment: 'https://example.com/notes',
    });
  });

  it('publishes an image with alt text from a 15-minute presigned URL (a PNG too)', async () => {
    world = await startWorld();
    const image = storedMedia(world, 'image', {
      alt: 'A lighthouse',
      mimeType: 'image/png',
      bytes: pngBytes(),
    });
    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), { postType: 'image', content: 'Dusk' }, [image]),
    );
    published(outcome);
    const [container] = world.fake.control.containers();
    expect(container).toMatchObject({
      type: 'IMAGE',
      status: 'PUBLISHED',
      fetched: { contentType: 'image/png', bytes: 2048 },
    });
    expect(container?.params).toMatchObject({ media_type: 'IMAGE', text: 'Dusk', alt_text: 'A lighthouse' });
    expect(world.urls.presigned).toEqual([{ key: image.delivered.stored?.objectKey, expiresInSeconds: 900 }]);
  });

  it('publishes a video: pending (checked again in 60 s) while the container is IN_PROGRESS, then published from the same container', async () => {
    world = await startWorld({ processingPolls: { VIDEO: 2 } });
    const video = storedMedia(world, 'video', { alt: 'Waves' });
    const outcomes = await publishUntilSettled(
      world,
      aRequest(world, userToken(world), { postType: 'video', content: 'Surf' }, [video]),
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['pending', 'pending', 'published']);
    expect(outcomes[0]).toMatchObject({ checkAfterSeconds: 60, stage: 'container_processing' });
    expect(world.fake.control.containers()).toHaveLength(1);
    expect(world.fake.control.fetchedUrls()).toHaveLength(1);
    expect(world.fake.control.posts()[0]).toMatchObject({ mediaType: 'VIDEO', text: 'Surf' });
  });

  it('publishes a carousel of mixed items: item containers (alt text, no text) each FINISHED, then the CAROUSEL parent', async () => {
    world = await startWorld();
    const items = [
      storedMedia(world, 'image', { alt: 'first' }),
      storedMedia(world, 'video'),
      storedMedia(world, 'image'),
    ];
    const outcomes = await publishUntilSettled(
      world,
      aRequest(world, userToken(world), { postType: 'carousel', content: 'Three from the trip' }, items),
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['pending', 'published']);
    const containers = world.fake.control.containers();
    const children = containers.filter((c) => c.isCarouselItem);
    expect(children.map((c) => c.type)).toEqual(['IMAGE', 'VIDEO', 'IMAGE']);
    expect(children[0]?.params).toMatchObject({ is_carousel_item: 'true', alt_text: 'first' });
    expect(children.every((c) => c.params.text === undefined)).toBe(true);
    const parent = containers.find((c) => c.type === 'CAROUSEL');
    expect(parent?.children).toEqual(children.map((c) => c.id));
    expect(world.fake.control.posts()).toEqual([
      expect.objectContaining({ mediaType: 'CAROUSEL_ALBUM', text: 'Three from the trip' }),
    ]);
    // The pending attempt's item containers were reused: each file fetched once.
    expect(world.fake.control.fetchedUrls()).toHaveLength(3);
  });

  it('publishes a thread as a reply chain: each post replies to the one before, text, image and carousel alike; the first names the post', async () => {
    world = await startWorld();
    const image = storedMedia(world, 'image');
    const pair = [storedMedia(world, 'image'), storedMedia(world, 'image')];
    const media = [image, ...pair];
    const request = aRequest(
      world,
      userToken(world),
      {
        postType: 'thread',
        content: threadContent([
          { text: 'One' },
          { text: 'Two', media: [image] },
          { text: 'Three', media: pair },
        ]),
        platformOptions: { threads: { replyControl: 'followers_only', quotePostId: undefined } },
      },
      media,
    );
    const outcome = (await publishUntilSettled(world, request)).at(-1);

    const posts = world.fake.control.posts();
    expect(posts.map((p) => [p.text, p.mediaType])).toEqual([
      ['One', 'TEXT_POST'],
      ['Two', 'IMAGE'],
      ['Three', 'CAROUSEL_ALBUM'],
    ]);
    expect(posts[1]?.repliedTo).toBe(posts[0]?.id);
    expect(posts[2]?.repliedTo).toBe(posts[1]?.id);
    expect(posts.every((p) => p.replyControl === 'followers_only')).toBe(true);
    expect(published(outcome).platformPostId).toBe(posts[0]?.id);
  });

  it('quotes a post and replies to an own post (quote_post_id, reply_to_id)', async () => {
    world = await startWorld();
    const [earlier] = world.fake.control.addPublished(USER.userId, [Date.now() - 3_600_000]);
    const token = userToken(world);
    published(
      await world.network.connector.publish(
        aRequest(world, token, {
          postType: 'text',
          content: 'Quoting',
          platformOptions: { threads: { quotePostId: earlier } },
        }),
      ),
    );
    published(
      await world.network.connector.publish(
        aRequest(world, token, {
          postId: 'pst_th_2',
          postType: 'text',
          content: 'Replying',
          platformOptions: { threads: { replyToId: earlier } },
        }),
      ),
    );
    const [, quote, reply] = world.fake.control.posts();
    expect(quote).toMatchObject({ text: 'Quoting', quotedPostId: earlier });
    expect(reply).toMatchObject({ text: 'Replying', repliedTo: earlier });
  });

  it('a thread that fails mid-way keeps what is on Threads: the retry publishes only the rest', async () => {
    world = await startWorld();
    const token = userToken(world);
    const request = aRequest(world, token, {
      postType: 'thread',
      content: threadContent([{ text: 'First' }, { text: 'Second' }]),
    });
    world.fake.control.failNext('threads_publish', { kind: 'pass' });
    world.fake.control.failNext('threads_publish', {
      kind: 'reply',
      reply: {
        status: 500,
        json: { error: { message: 'Please retry', type: 'THApiException', code: 2, is_transient: true } },
      },
    });

    const first = await world.network.connector.publish(request);
    expect(first).toMatchObject({ kind: 'failed', failure: 'transient', code: 'PLATFORM_ERROR' });
    if (first.kind !== 'failed') throw new Error('unreachable');
    const retry = await world.network.connector.publish({
      ...request,
      attempt: 2,
      ...(first.progress && { progress: first.progress }),
    });

    expect(published(retry).platformPostId).toBe(world.fake.control.posts()[0]?.id);
    expect(world.fake.control.posts().map((p) => p.text)).toEqual(['First', 'Second']);
    // The second post's container was kept and published: two containers in all.
    expect(world.fake.control.containers()).toHaveLength(2);
  });
});
