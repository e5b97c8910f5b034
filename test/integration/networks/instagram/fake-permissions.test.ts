import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstagramWorld, jpegBytes, startWorld, USER, userToken } from './instagram-world.js';

const BASIC = 'instagram_business_basic';
const PUBLISH = 'instagram_business_content_publish';

/**
 * The fake asks each call for the permissions its Instagram Login reference names: reads need
 * instagram_business_basic; containers, media_publish and content_publishing_limit need
 * instagram_business_content_publish too
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/content_publishing_limit,
 * https://developers.facebook.com/docs/instagram-platform/content-publishing). Sent straight to it.
 */
describe('fake Instagram: the permissions each call needs', () => {
  let world: InstagramWorld;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world.stop();
  });

  const graph = (
    token: string,
    method: 'GET' | 'POST',
    path: string,
    params: Record<string, string> = {},
  ) => {
    const url = new URL(`${world.fake.graphUrl}/v23.0${path}`);
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (method === 'GET') {
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return fetch(url, { headers });
    }
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return fetch(url, { method, headers, body: new URLSearchParams(params).toString() });
  };

  async function finishedContainer(): Promise<string> {
    world.urls.put('t/ten_1/w/wks_1/m/med_perm', jpegBytes(), 'image/jpeg');
    const full = userToken(world);
    const created = await graph(full, 'POST', `/${USER.userId}/media`, {
      image_url: await world.urls.presignGet('t/ten_1/w/wks_1/m/med_perm', 900),
      caption: 'permissions',
    });
    const { id } = (await created.json()) as { id: string };
    await graph(full, 'GET', `/${id}`, { fields: 'status_code' });
    return id;
  }

  it('refuses media_publish and the publishing limit to a token without instagram_business_content_publish', async () => {
    const container = await finishedContainer();
    const basicOnly = userToken(world, { scopes: [BASIC] });

    const limit = await graph(basicOnly, 'GET', `/${USER.userId}/content_publishing_limit`, {
      fields: 'quota_usage,config',
    });
    const publish = await graph(basicOnly, 'POST', `/${USER.userId}/media_publish`, {
      creation_id: container,
    });

    expect(limit.status).toBe(400);
    expect(await limit.json()).toMatchObject({ error: { code: 10, type: 'OAuthException' } });
    expect(publish.status).toBe(400);
    expect(await publish.json()).toMatchObject({ error: { code: 10 } });
    expect(world.fake.control.media()).toHaveLength(0);
  });

  it('refuses reads to a token without instagram_business_basic', async () => {
    const publishOnly = userToken(world, { scopes: [PUBLISH] });

    const me = await graph(publishOnly, 'GET', '/me', { fields: 'user_id,username' });
    const media = await graph(publishOnly, 'GET', `/${USER.userId}/media`, { fields: 'id' });

    expect([me.status, media.status]).toEqual([400, 400]);
    expect(await me.json()).toMatchObject({ error: { code: 10 } });
  });

  it('answers every call to a token holding both', async () => {
    const full = userToken(world);

    const me = await graph(full, 'GET', '/me', { fields: 'user_id' });
    const limit = await graph(full, 'GET', `/${USER.userId}/content_publishing_limit`, {
      fields: 'quota_usage',
    });

    expect([me.status, limit.status]).toEqual([200, 200]);
  });
});
