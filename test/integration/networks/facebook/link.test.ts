import { afterEach, describe, expect, it } from 'vitest';
import { aRequest, type FacebookWorld, startWorld, storedMedia } from './facebook-world.js';

describe('Facebook: a post’s link as the feed post’s preview card', () => {
  let world: FacebookWorld;
  afterEach(() => world.stop());

  it('sends a text post’s link.url as `link` on /feed (Facebook reads the page itself)', async () => {
    world = await startWorld();
    const outcome = await world.network.connector.publish(
      aRequest(world, 'text', [], {
        postOverrides: { content: 'This week’s menu', link: { url: 'https://bakery.example/menu' } },
      }),
    );
    expect(outcome.kind).toBe('published');
    expect(world.fake.control.posts()[0]).toMatchObject({
      kind: 'link',
      link: 'https://bakery.example/menu',
    });
  });

  it('Facebook failing to read the page (1609005): the post fails for good as LINK_PREVIEW_FAILED, nothing posted', async () => {
    world = await startWorld();
    world.fake.control.setLinkScrapeFails(true);
    const outcome = await world.network.connector.publish(
      aRequest(world, 'text', [], {
        postOverrides: { content: 'This week’s menu', link: { url: 'https://bakery.example/menu' } },
      }),
    );
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'LINK_PREVIEW_FAILED' });
    expect(world.fake.control.posts()).toHaveLength(0);
  });

  it('the connector sends no link with a photo, and the fake refuses one there (link is for feed posts only)', async () => {
    world = await startWorld();
    const photo = storedMedia(world, 'image');
    const outcome = await world.network.connector.publish(
      aRequest(world, 'image', [photo], {
        postOverrides: { content: 'Rye', link: { url: 'https://bakery.example/menu' } },
      }),
    );
    expect(outcome.kind).toBe('published');
    expect(world.fake.control.seen().find((seen) => seen.endpoint === 'photos')?.params).not.toHaveProperty(
      'link',
    );

    const response = await fetch(
      `${world.fake.graphUrl}/v24.0/${world.fake.control.posts()[0]?.pageId}/photos`,
      {
        method: 'POST',
        headers: {
          Authorization: `OAuth ${world.pageToken()}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          url: 'http://127.0.0.1:9/a.jpg',
          link: 'https://bakery.example/menu',
        }).toString(),
      },
    );
    expect(response.status).toBe(400);
  });
});
