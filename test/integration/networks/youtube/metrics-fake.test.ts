import { afterEach, describe, expect, it } from 'vitest';
import {
  FAKE_ANALYTICS_LAG_HOURS,
  FAKE_AVERAGE_VIEW_PERCENTAGE,
  FAKE_MINUTES_PER_VIEW,
  REPORTS_MAX_FILTER_IDS,
  VIDEOS_LIST_MAX_IDS,
} from '../../../../infra/fake-networks/youtube/index.js';
import { YOUTUBE_READONLY_SCOPE, YOUTUBE_UPLOAD_SCOPE } from '../../../../shared/networks/youtube/scopes.js';
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

/** The fake's Analytics report (reports.query) keeps the rules the connector relies on. */
describe("YouTube fake's Analytics report", () => {
  let world: YouTubeWorld;
  afterEach(() => world.stop());

  const NOW = Date.parse('2026-05-20T12:00:00.000Z');
  const QUERY = {
    ids: 'channel==MINE',
    startDate: '2005-02-14',
    endDate: '2026-05-20',
    metrics: 'estimatedMinutesWatched,averageViewPercentage',
    dimensions: 'video',
  };

  async function report(query: Record<string, string>, token: string) {
    const url = new URL(`${world.fake.analyticsUrl}/reports`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const reasonOf = (body: Record<string, unknown>) =>
    (body.error as { errors: { reason: string }[] }).errors[0]?.reason;

  it('answers a result table: the video column, then the metrics as asked, a row per video with data', async () => {
    world = await startWorld({ now: () => NOW });
    const old = world.fake.control.addVideo({
      channelId: CHANNEL.id,
      uploadedAt: '2026-05-10T12:00:00.000Z',
    });
    const fresh = world.fake.control.addVideo({
      channelId: CHANNEL.id,
      uploadedAt: '2026-05-20T06:00:00.000Z',
    });

    const answer = await report({ ...QUERY, filters: `video==${old},${fresh}` }, channelToken(world));

    expect(answer.status).toBe(200);
    const views = (10 * 24 - FAKE_ANALYTICS_LAG_HOURS) * 60;
    expect(answer.body).toEqual({
      kind: 'youtubeAnalytics#resultTable',
      columnHeaders: [
        { name: 'video', columnType: 'DIMENSION', dataType: 'STRING' },
        { name: 'estimatedMinutesWatched', columnType: 'METRIC', dataType: 'INTEGER' },
        { name: 'averageViewPercentage', columnType: 'METRIC', dataType: 'FLOAT' },
      ],
      rows: [[old, views * FAKE_MINUTES_PER_VIEW, FAKE_AVERAGE_VIEW_PERCENTAGE]],
    });
  });

  it('leaves rows out when no video has data yet', async () => {
    world = await startWorld({ now: () => NOW });
    const fresh = world.fake.control.addVideo({
      channelId: CHANNEL.id,
      uploadedAt: '2026-05-20T06:00:00.000Z',
    });

    const answer = await report({ ...QUERY, filters: `video==${fresh}` }, channelToken(world));

    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('rows');
  });

  it('refuses a token without an Analytics scope (403 insufficientPermissions), youtube.readonly alone included', async () => {
    world = await startWorld({ now: () => NOW });
    const id = world.fake.control.addVideo({ channelId: CHANNEL.id });

    const answer = await report(
      { ...QUERY, filters: `video==${id}` },
      channelToken(world, [YOUTUBE_UPLOAD_SCOPE, YOUTUBE_READONLY_SCOPE]),
    );

    expect(answer.status).toBe(403);
    expect(reasonOf(answer.body)).toBe('insufficientPermissions');
  });

  it("refuses another channel's ids, a missing date or metric, another dimension, and more than 500 filter ids", async () => {
    world = await startWorld({ now: () => NOW });
    const token = channelToken(world);
    const id = world.fake.control.addVideo({ channelId: CHANNEL.id });
    const filters = `video==${id}`;
    const { startDate: _start, ...withoutStart } = QUERY;
    const { metrics: _metrics, ...withoutMetrics } = QUERY;

    const otherChannel = await report({ ...QUERY, ids: 'channel==UCsomeoneElse', filters }, token);
    const noStart = await report({ ...withoutStart, filters }, token);
    const reversed = await report({ ...QUERY, startDate: '2026-06-01', filters }, token);
    const noMetrics = await report({ ...withoutMetrics, filters }, token);
    const unknownMetric = await report({ ...QUERY, metrics: 'watchTime', filters }, token);
    const byDay = await report({ ...QUERY, dimensions: 'day', filters }, token);
    const overLimit = await report(
      {
        ...QUERY,
        filters: `video==${Array.from({ length: REPORTS_MAX_FILTER_IDS + 1 }, () => id).join(',')}`,
      },
      token,
    );
    const atLimit = await report(
      { ...QUERY, filters: `video==${Array.from({ length: REPORTS_MAX_FILTER_IDS }, () => id).join(',')}` },
      token,
    );

    expect(otherChannel.status).toBe(403);
    for (const refused of [noStart, reversed, noMetrics, unknownMetric, byDay, overLimit])
      expect(refused.status).toBe(400);
    expect(atLimit.status).toBe(200);
  });
});
