import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import { connect, startXWorld, type XWorld } from './x-fixture.js';

/**
 * The fake refuses what X refuses: a body that breaks X's own OpenAPI document, a parameter out of
 * range, a chunk out of order. Sent straight to it, without the connector.
 */
describe('fake X: requests checked against X API v2 OpenAPI document', () => {
  let world: XWorld;
  let tokens: TokenSet;
  beforeAll(async () => {
    world = await startXWorld();
    tokens = await connect(world);
  });
  afterAll(async () => {
    await world.fake.stop();
  });

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${world.fake.apiUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${tokens.accessToken}`, ...init.headers },
    });
  const postJson = (path: string, body: unknown) =>
    call(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  const malformedTweets = [
    {
      name: 'five media ids (maxItems 4)',
      body: { text: 'x', media: { media_ids: ['1', '2', '3', '4', '5'] } },
      where: 'body/media/media_ids',
    },
    {
      name: 'a media id that is not digits',
      body: { text: 'x', media: { media_ids: ['abc'] } },
      where: 'body/media/media_ids/0',
    },
    { name: 'a field X does not know', body: { text: 'x', mood: 'happy' }, where: 'body' },
    {
      name: 'reply_settings outside its enum',
      body: { text: 'x', reply_settings: 'everyone' },
      where: 'body/reply_settings',
    },
    { name: 'a reply without the tweet it answers', body: { text: 'x', reply: {} }, where: 'body/reply' },
    { name: 'text that is not a string', body: { text: 42 }, where: 'body/text' },
  ];

  for (const { name, body, where } of malformedTweets) {
    it(`POST /2/tweets refuses ${name} with 400 invalid-request, and stores nothing`, async () => {
      const before = world.fake.control.tweets().length;

      const answer = await postJson('/2/tweets', body);

      expect(answer.status).toBe(400);
      const problem = (await answer.json()) as {
        type: string;
        errors: { parameters: Record<string, string[]> }[];
      };
      expect(problem.type).toBe('https://api.x.com/2/problems/invalid-request');
      expect(Object.keys(problem.errors[0]?.parameters ?? {})).toContain(where);
      expect(world.fake.control.tweets()).toHaveLength(before);
    });
  }

  it('takes a well-formed tweet', async () => {
    const answer = await postJson('/2/tweets', { text: 'well formed', reply_settings: 'mentionedUsers' });

    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-rate-limit-limit')).toBe('100');
  });

  it('refuses an initialize body outside the schema (media_type not in its enum, total_bytes negative)', async () => {
    const answer = await postJson('/2/media/upload/initialize', {
      media_type: 'image/heic',
      total_bytes: -1,
    });

    expect(answer.status).toBe(400);
    const problem = (await answer.json()) as { errors: { parameters: Record<string, string[]> }[] };
    expect(Object.keys(problem.errors[0]?.parameters ?? {}).sort()).toEqual([
      'body/media_type',
      'body/total_bytes',
    ]);
  });

  it('checks multipart appends: segment_index in 0–999, and segments in order', async () => {
    const init = await postJson('/2/media/upload/initialize', {
      media_type: 'image/png',
      total_bytes: 20,
      media_category: 'tweet_image',
    });
    const { data } = (await init.json()) as { data: { id: string } };
    const append = (segment: string, size = 10) => {
      const form = new FormData();
      form.append('segment_index', segment);
      form.append('media', new Blob([new Uint8Array(size)]), 'chunk');
      return call(`/2/media/upload/${data.id}/append`, { method: 'POST', body: form });
    };

    expect((await append('1000')).status).toBe(400);
    expect((await append('1')).status).toBe(400);
    expect((await append('0')).status).toBe(200);
    expect((await append('1')).status).toBe(200);
    expect(world.fake.control.media().find((media) => media.id === data.id)?.segments).toEqual([10, 10]);
  });

  it('checks query parameters too: max_results beyond 100 is refused', async () => {
    const answer = await call(`/2/users/${'1500000000000000001'}/tweets?max_results=500`);

    expect(answer.status).toBe(400);
  });

  it("refuses a request without a valid bearer token with X's 401", async () => {
    const answer = await fetch(`${world.fake.apiUrl}/2/tweets`, {
      method: 'POST',
      headers: { Authorization: 'Bearer nope', 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'x' }),
    });

    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ title: 'Unauthorized', type: 'about:blank' });
  });
});
