import { describe, expect, it } from 'vitest';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import { movieFile } from '../../support/video-files.js';
import { aMedia } from '../support/builders.js';
import { aDeliveryWorld, fakeMediaFetcher } from '../support/in-memory-delivery-ports.js';

const CLIP = 'https://cdn.example.com/clip.mp4';

async function setup() {
  const world = await aDeliveryWorld();
  const deliver = (overrides: Partial<Parameters<typeof makeDeliverPost>[0]> = {}) =>
    makeDeliverPost({ ...world, ...overrides })(world.message);
  return { ...world, deliver };
}

describe('deliver a post: video durations, before any upload', () => {
  it('fails a post whose URL video, read when fetched, is over the network’s limit; the network is not called', async () => {
    // Prepare: X takes at most 125 minutes
    const world = await setup();
    const fetchMedia = fakeMediaFetcher({
      [CLIP]: { bytes: movieFile({ durationSeconds: 126 * 60 }), contentType: 'video/mp4', finalUrl: CLIP },
    });
    world.seedPost({ postType: 'video', media: [{ url: CLIP, type: 'video' }] });

    // Act
    const result = await world.deliver({ fetchMedia });

    // Assess
    expect(result).toBe('failed');
    expect((await world.stored()).error).toEqual({
      origin: 'service',
      code: 'VIDEO_TOO_LONG',
      message: expect.stringContaining('media[0]: A video on X may last at most 125 min'),
      retryable: false,
    });
    expect(world.network.requests).toHaveLength(0);
  });

  it('fails a post whose stored video was confirmed too short after the post was created', async () => {
    // Prepare: the media record as confirm left it (0.3 s), named by a post queued earlier
    const world = await setup();
    const clip = aMedia({ mimeType: 'video/mp4', status: 'uploaded', durationSeconds: 0.3 });
    await world.media.put(clip);
    world.seedPost({ postType: 'video', media: [{ id: clip.mediaId }] });

    // Act
    const result = await world.deliver();

    // Assess
    expect(result).toBe('failed');
    expect((await world.stored()).error).toMatchObject({ origin: 'service', code: 'VIDEO_TOO_SHORT' });
    expect(world.network.requests).toHaveLength(0);
  });

  it('publishes a video within the limit, and one whose duration is unknown', async () => {
    const world = await setup();
    const fetchMedia = fakeMediaFetcher({
      [CLIP]: { bytes: Buffer.from('no movie header here'), contentType: 'video/mp4', finalUrl: CLIP },
    });
    world.seedPost({ postType: 'video', media: [{ url: CLIP, type: 'video' }] });

    expect(await world.deliver({ fetchMedia })).toBe('published');
    expect(world.network.requests).toHaveLength(1);
  });
});
