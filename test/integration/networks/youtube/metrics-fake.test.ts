import { afterEach, describe, expect, it } from 'vitest';
import { VIDEOS_LIST_MAX_IDS } from '../../../../infra/fake-networks/youtube/index.js';
import { YOUTUBE_UPLOAD_SCOPE } from '../../../../shared/networks/youtube/scopes.js';
import { CHANNEL, channelToken, startWorld, type YouTubeWorld } from './youtube-world.js';

/** The fake's statistics reads keep YouTube's rules, so a connector breaking them fails its tests. */
describe("YouTube fake's statistics reads", () => {
  let world: YouTubeWorld;
  afterEach(() => world.stop());

  async function get(path: string, query: Record<string, string>, token: string) {
    const url = new URL(`${world.fake.apiUrl}/${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const reasonOf = (body: Record<string, unknown>) =>
    (body.error as { errors: { reason: string; domain: string }[] }).errors[0];

  it(`refuses more than ${VIDEOS_LIST_MAX_IDS} ids in one videos.list, and takes ${VIDEOS_LIST_MAX_IDS}`, async () => {
    world = await startWorld();
    const token = channelToken(world);
    const ids = Array.from({ length: VIDEOS_LIST_MAX_IDS + 1 }, () =>
      world.fake.control.addVideo({ channelId: CHANNEL.id }),
    );

    const over = await get('videos', { part: 'statistics', id: ids.join(',') }, token);
    const atLimit = await get('videos', { part: 'statistics', id: ids.slice(1).join(',') }, token);

    expect(over.status).toBe(400);
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.items).toHaveLength(VIDEOS_LIST_MAX_IDS);
  });

  it('refuses a part YouTube does not name (400 unknownPart in youtube.part)', async () => {
    world = await startWorld();
    const id = world.fake.control.addVideo({ channelId: CHANNEL.id });

    const answer = await get('videos', { part: 'statistic', id }, channelToken(world));

    expect(answer.status).toBe(400);
    expect(reasonOf(answer.body)).toMatchObject({ reason: 'unknownPart', domain: 'youtube.part' });
  });

  it('sends counts as decimal strings, favoriteCount 0 and no dislikeCount', async () => {
    world = await startWorld();
    const id = world.fake.control.addVideo({ channelId: CHANNEL.id, uploadedAt: '2020-01-01T00:00:00.000Z' });

    const answer = await get('videos', { part: 'statistics', id }, channelToken(world));

    const statistics = (answer.body.items as { statistics: Record<string, unknown> }[])[0]?.statistics;
    expect(statistics?.viewCount).toMatch(/^\d+$/);
    expect(statistics?.favoriteCount).toBe('0');
    expect(statistics).not.toHaveProperty('dislikeCount');
  });

  it('refuses a token with only the upload scope (403 insufficientPermissions)', async () => {
    world = await startWorld();
    const id = world.fake.control.addVideo({ channelId: CHANNEL.id });

    const answer = await get(
      'videos',
      { part: 'statistics', id },
      channelToken(world, [YOUTUBE_UPLOAD_SCOPE]),
    );

    expect(answer.status).toBe(403);
    expect(reasonOf(answer.body)).toMatchObject({ reason: 'insufficientPermissions' });
  });
});
