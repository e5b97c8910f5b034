import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_X_USER } from '../../../../infra/fake-networks/x/index.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import { connect, startXWorld, type XWorld } from './x-fixture.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * The fake's upload limits per media_category, as X's initialize reference and media best-practices
 * page give them (https://docs.x.com/x-api/media/initialize-media-upload): they follow the
 * authenticated user (default or X Premium / verified), and an APPEND segment may hold up to 8 MB
 * (https://docs.x.com/x-api/media/append-media-upload). Sent straight to the fake, over HTTP.
 */
describe('fake X: media limits per category and per user', () => {
  let standard: XWorld;
  let premium: XWorld;
  let standardTokens: TokenSet;
  let premiumTokens: TokenSet;
  beforeAll(async () => {
    standard = await startXWorld();
    premium = await startXWorld({}, { users: [{ ...DEFAULT_FAKE_X_USER, premium: true }] });
    standardTokens = await connect(standard);
    premiumTokens = await connect(premium);
  });
  afterAll(async () => {
    await standard.fake.stop();
    await premium.fake.stop();
  });

  const initialize = (world: XWorld, tokens: TokenSet, body: Record<string, unknown>) =>
    fetch(`${world.fake.apiUrl}/2/media/upload/initialize`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.accessToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  const standardLimits = [
    { category: 'tweet_image', mediaType: 'image/jpeg', max: 5 * MiB },
    { category: 'dm_image', mediaType: 'image/png', max: 5 * MiB },
    { category: 'tweet_gif', mediaType: 'image/gif', max: 15 * MiB },
    { category: 'dm_gif', mediaType: 'image/gif', max: 15 * MiB },
    { category: 'tweet_video', mediaType: 'video/mp4', max: 8 * GiB },
    { category: 'amplify_video', mediaType: 'video/quicktime', max: 8 * GiB },
    { category: 'dm_video', mediaType: 'video/mp4', max: 512 * MiB },
  ];

  for (const { category, mediaType, max } of standardLimits) {
    it(`takes ${category} up to ${max} bytes for a default account, and refuses one byte more`, async () => {
      const atLimit = await initialize(standard, standardTokens, {
        media_type: mediaType,
        total_bytes: max,
        media_category: category,
      });
      const over = await initialize(standard, standardTokens, {
        media_type: mediaType,
        total_bytes: max + 1,
        media_category: category,
      });

      expect(atLimit.status).toBe(200);
      expect(over.status).toBe(400);
      expect(await over.json()).toMatchObject({
        type: 'https://api.x.com/2/problems/invalid-request',
        errors: [{ message: `File size exceeds ${max} bytes.` }],
      });
    });
  }

  it('takes a video of 16 GB on a Post and 1 GB in a DM from an X Premium account', async () => {
    const post = await initialize(premium, premiumTokens, {
      media_type: 'video/mp4',
      total_bytes: 16 * GiB,
      media_category: 'tweet_video',
    });
    const dm = await initialize(premium, premiumTokens, {
      media_type: 'video/mp4',
      total_bytes: GiB,
      media_category: 'dm_video',
    });
    const dmOver = await initialize(premium, premiumTokens, {
      media_type: 'video/mp4',
      total_bytes: GiB + 1,
      media_category: 'dm_video',
    });

    expect([post.status, dm.status, dmOver.status]).toEqual([200, 200, 400]);
  });

  it('takes subtitles as SRT or WebVTT, and refuses a category that does not fit the type', async () => {
    const subtitles = await initialize(standard, standardTokens, {
      media_type: 'text/vtt',
      total_bytes: 2000,
      media_category: 'subtitles',
    });
    const imageAsDmVideo = await initialize(standard, standardTokens, {
      media_type: 'image/png',
      total_bytes: 2000,
      media_category: 'dm_video',
    });

    expect(subtitles.status).toBe(200);
    expect(imageAsDmVideo.status).toBe(400);
  });

  it("uploads a DM's image but refuses it on a Post, as X does with the wrong category", async () => {
    const auth = { Authorization: `Bearer ${standardTokens.accessToken}` };
    const init = await initialize(standard, standardTokens, {
      media_type: 'image/png',
      total_bytes: 10,
      media_category: 'dm_image',
    });
    const { data } = (await init.json()) as { data: { id: string } };
    const form = new FormData();
    form.append('segment_index', '0');
    form.append('media', new Blob([new Uint8Array(10)]), 'chunk');
    const base = `${standard.fake.apiUrl}/2/media/upload/${data.id}`;
    const append = await fetch(`${base}/append`, { method: 'POST', headers: auth, body: form });
    const finalize = await fetch(`${base}/finalize`, { method: 'POST', headers: auth });

    const tweet = await fetch(`${standard.fake.apiUrl}/2/tweets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'with a DM image', media: { media_ids: [data.id] } }),
    });

    expect([append.status, finalize.status]).toEqual([200, 200]);
    expect(tweet.status).toBe(400);
    expect(await tweet.json()).toMatchObject({ errors: [{ message: 'Your media IDs are invalid.' }] });
  });

  it('takes an APPEND segment of 8 MB (the server maximum) and refuses one byte more', async () => {
    const init = await initialize(standard, standardTokens, {
      media_type: 'video/mp4',
      total_bytes: 16 * MiB + 1,
      media_category: 'tweet_video',
    });
    const { data } = (await init.json()) as { data: { id: string } };
    const append = (segment: number, size: number) => {
      const form = new FormData();
      form.append('segment_index', String(segment));
      form.append('media', new Blob([new Uint8Array(size)]), 'chunk');
      return fetch(`${standard.fake.apiUrl}/2/media/upload/${data.id}/append`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${standardTokens.accessToken}` },
        body: form,
      });
    };

    const full = await append(0, 8 * MiB);
    const tooBig = await append(1, 8 * MiB + 1);

    expect(full.status).toBe(200);
    expect(tooBig.status).toBe(400);
    expect(standard.fake.control.media().find((media) => media.id === data.id)?.segments).toEqual([8 * MiB]);
  });
});
