import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, storedMedia, type ThreadsWorld, USER, userToken } from './threads-world.js';

/** The fake refuses what Threads refuses (threads.md §13 "Fake's rules"): asked directly over HTTP. */
describe('the Threads fake enforces the documented rules', () => {
  let world: ThreadsWorld;
  afterEach(() => world.stop());

  const call = async (
    method: 'GET' | 'POST',
    path: string,
    token: string,
    params: Record<string, string> = {},
  ) => {
    const url = new URL(`${world.fake.graphUrl}/v1.0${path}`);
    if (method === 'GET')
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      ...(method === 'POST' && { body: new URLSearchParams(params).toString() }),
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<
        string,
        { code?: number; error_subcode?: number; message?: string; type?: string; fbtrace_id?: string }
      > & { id?: string; status?: string },
    };
  };
  const create = (token: string, params: Record<string, string>) =>
    call('POST', `/${USER.userId}/threads`, token, params);

  it('containers: media_type required; text on TEXT; 500 characters with each emoji its UTF-8 bytes; at most 5 links; text-only attachments', async () => {
    world = await startWorld();
    const token = userToken(world);
    expect((await create(token, { text: 'no type' })).status).toBe(400);
    expect((await create(token, { media_type: 'TEXT' })).status).toBe(400);
    expect((await create(token, { media_type: 'TEXT', text: 'a'.repeat(500) })).status).toBe(200);
    const tooLong = await create(token, { media_type: 'TEXT', text: `${'😀'.repeat(125)}a` });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error?.message).toContain('text must be at most 500 characters');
    const links = Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`).join(' ');
    expect((await create(token, { media_type: 'TEXT', text: links })).body.error?.message).toContain(
      'THREADS_API__LINK_LIMIT_EXCEEDED',
    );
    expect((await create(token, { media_type: 'TEXT', text: 'x', alt_text: 'no' })).status).toBe(400);
    expect((await create(token, { media_type: 'TEXT', text: 'x', reply_control: 'nobody' })).status).toBe(
      400,
    );
    const image = storedMedia(world, 'image');
    const url = await world.urls.presignGet(image.delivered.stored?.objectKey ?? '', 60);
    expect(
      (await create(token, { media_type: 'IMAGE', image_url: url, link_attachment: 'https://example.com' }))
        .status,
    ).toBe(400);
    expect(
      (await create(token, { media_type: 'TEXT', text: 'x', reply_to_id: '18999999999999999' })).body.error
        ?.code,
    ).toBe(100);
  });

  it('carousels take 2 to 20 FINISHED carousel items; a container publishes once, only when FINISHED (else 24/4279009)', async () => {
    world = await startWorld({ processingPolls: { IMAGE: 1 } });
    const token = userToken(world);
    const item = async () => {
      const image = storedMedia(world, 'image');
      const url = await world.urls.presignGet(image.delivered.stored?.objectKey ?? '', 60);
      return String(
        (await create(token, { media_type: 'IMAGE', image_url: url, is_carousel_item: 'true' })).body.id,
      );
    };
    const first = await item();
    expect((await create(token, { media_type: 'CAROUSEL', children: first })).status).toBe(400);
    const second = await item();
    const notReady = await create(token, { media_type: 'CAROUSEL', children: `${first},${second}` });
    expect(notReady.body.error).toMatchObject({ code: 24, error_subcode: 4279009 });
    for (const id of [first, second]) {
      await call('GET', `/${id}`, token, { fields: 'status' });
      expect((await call('GET', `/${id}`, token, { fields: 'status' })).body.status).toBe('FINISHED');
    }
    const tooMany = Array.from({ length: 21 }, () => first).join(',');
    expect((await create(token, { media_type: 'CAROUSEL', children: tooMany })).status).toBe(400);
    const carousel = String(
      (await create(token, { media_type: 'CAROUSEL', children: `${first},${second}` })).body.id,
    );
    expect(
      (await call('POST', `/${USER.userId}/threads_publish`, token, { creation_id: first })).status,
    ).toBe(400);
    const publish = () => call('POST', `/${USER.userId}/threads_publish`, token, { creation_id: carousel });
    expect((await publish()).status).toBe(200);
    expect((await publish()).status).toBe(400);
    expect((await call('GET', `/${carousel}`, token, { fields: 'status' })).body.status).toBe('PUBLISHED');

    const text = String((await create(token, { media_type: 'TEXT', text: 'late' })).body.id);
    world.fake.control.expireContainer(text);
    expect((await call('GET', `/${text}`, token, { fields: 'status' })).body.status).toBe('EXPIRED');
    expect((await call('POST', `/${USER.userId}/threads_publish`, token, { creation_id: text })).status).toBe(
      400,
    );
  });

  it('a video Meta cannot process ends ERROR with its error_message, answered with HTTP 200', async () => {
    world = await startWorld();
    const token = userToken(world);
    const video = storedMedia(world, 'video', { mimeType: 'video/webm' });
    const url = await world.urls.presignGet(video.delivered.stored?.objectKey ?? '', 60);
    const id = String((await create(token, { media_type: 'VIDEO', video_url: url })).body.id);
    await call('GET', `/${id}`, token, { fields: 'status,error_message' });
    const status = await call('GET', `/${id}`, token, { fields: 'status,error_message' });
    expect(status).toEqual({
      status: 200,
      body: { id, status: 'ERROR', error_message: 'FAILED_PROCESSING_VIDEO' },
    });
  });

  it('the 24-hour allowance: 250 posts and 1,000 replies counted apart, read through threads_publishing_limit', async () => {
    world = await startWorld({ quotaTotal: 1, replyQuotaTotal: 1 });
    const token = userToken(world);
    const publishText = async (params: Record<string, string>) => {
      const id = String((await create(token, { media_type: 'TEXT', ...params })).body.id);
      return call('POST', `/${USER.userId}/threads_publish`, token, { creation_id: id });
    };
    const root = await publishText({ text: 'root' });
    expect(root.status).toBe(200);
    expect((await publishText({ text: 'second' })).body.error).toMatchObject({ code: 9 });
    expect((await publishText({ text: 'reply', reply_to_id: String(root.body.id) })).status).toBe(200);
    expect(
      (await publishText({ text: 'reply 2', reply_to_id: String(root.body.id) })).body.error,
    ).toMatchObject({ code: 9 });
    const limit = await call('GET', `/${USER.userId}/threads_publishing_limit`, token, {
      fields: 'quota_usage,config,reply_quota_usage,reply_config',
    });
    expect(limit.body).toEqual({
      data: [
        {
          quota_usage: 1,
          config: { quota_total: 1, quota_duration: 86400 },
          reply_quota_usage: 1,
          reply_config: { quota_total: 1, quota_duration: 86400 },
        },
      ],
    });
  });

  it('tokens and permissions: publishing needs threads_content_publish, a reply threads_manage_replies; errors in the Graph shape', async () => {
    world = await startWorld();
    const basic = userToken(world, { scopes: ['threads_basic'] });
    const denied = await create(basic, { media_type: 'TEXT', text: 'x' });
    expect(denied.status).toBe(400);
    expect(denied.body.error).toMatchObject({ code: 10, type: 'OAuthException' });
    const noReplies = userToken(world, { scopes: ['threads_basic', 'threads_content_publish'] });
    const [own] = world.fake.control.addPublished(USER.userId, [Date.now() - 1000]);
    expect(
      (await create(noReplies, { media_type: 'TEXT', text: 'x', reply_to_id: String(own) })).body.error?.code,
    ).toBe(10);
    const bad = await create('nope', { media_type: 'TEXT', text: 'x' });
    expect(bad.body.error).toMatchObject({ code: 190, type: 'OAuthException' });
    expect(typeof bad.body.error?.fbtrace_id).toBe('string');
  });

  it('token kinds: only a short-lived token is exchanged, only a long-lived one at least 24 hours old is refreshed', async () => {
    world = await startWorld();
    const long = userToken(world);
    const exchange = await fetch(
      `${world.fake.graphUrl}/access_token?grant_type=th_exchange_token&client_secret=${world.fake.clientSecret}&access_token=${long}`,
    );
    expect(exchange.status).toBe(400);
    const young = await fetch(
      `${world.fake.graphUrl}/refresh_access_token?grant_type=th_refresh_token&access_token=${long}`,
    );
    expect(young.status).toBe(400);
    const short = world.fake.control.issueToken(USER.userId, { kind: 'short', ageMs: 2 * 86_400_000 });
    const refreshShort = await fetch(
      `${world.fake.graphUrl}/refresh_access_token?grant_type=th_refresh_token&access_token=${short}`,
    );
    expect(refreshShort.status).toBe(400);
  });
});
