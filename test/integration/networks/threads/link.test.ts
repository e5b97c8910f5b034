import { afterEach, describe, expect, it } from 'vitest';
import {
  aRequest,
  published,
  publishUntilSettled,
  startWorld,
  type ThreadsWorld,
  userToken,
} from './threads-world.js';

describe('Threads: a post’s link as its link_attachment card', () => {
  let world: ThreadsWorld;
  afterEach(() => world.stop());

  it('sends a text post’s link.url as link_attachment (Threads reads the page itself)', async () => {
    world = await startWorld();
    const request = aRequest(world, userToken(world), {
      postType: 'text',
      content: 'Our release notes',
      link: { url: 'https://example.com/notes' },
    });

    published((await publishUntilSettled(world, request)).at(-1));

    expect(world.fake.control.containers()[0]?.params).toMatchObject({
      media_type: 'TEXT',
      link_attachment: 'https://example.com/notes',
    });
    expect(world.fake.control.posts()[0]?.linkAttachment).toBe('https://example.com/notes');
  });

  it('the fake refuses link_attachment on a post with media, as Threads does', async () => {
    world = await startWorld();
    const token = userToken(world);
    const response = await fetch(`${world.fake.graphUrl}/v1.0/me/threads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        media_type: 'IMAGE',
        image_url: 'http://127.0.0.1:9/x.jpg',
        link_attachment: 'https://example.com/notes',
      }).toString(),
    });
    expect(response.status).toBe(400);
    expect(world.fake.control.containers()).toHaveLength(0);
  });
});
