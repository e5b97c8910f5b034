import { describe, expect, it } from 'vitest';
import type { DeliveryMessage } from '../../../shared/ports/queues.js';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import { deliveryMessageOf } from '../../../shared/services/delivery/delivery-message.js';
import { aMedia } from '../support/builders.js';
import {
  ACCOUNT_ID,
  aDeliveryWorld,
  atDelivery,
  TENANT_ID,
  WORKSPACE_ID,
} from '../support/in-memory-delivery-ports.js';

/**
 * The worker's reads (each one DynamoDB round trip): the post, its account and its stored media
 * in one when the message names them, and never a read the post as read does not back.
 */
describe('the delivery worker reads', () => {
  const deliverWith = async (world: Awaited<ReturnType<typeof aDeliveryWorld>>, message: DeliveryMessage) =>
    makeDeliverPost(world)(message);

  it('the post, its account and its media in one round trip when the message names them', async () => {
    // Prepare
    const world = await aDeliveryWorld();
    const media = aMedia({
      tenantId: TENANT_ID,
      workspaceId: WORKSPACE_ID,
      mediaId: 'med_01JD0000000000000000000001',
    });
    await world.media.put(media);
    const post = world.seedPost({ media: [{ id: media.mediaId }] });

    // Act
    const result = await deliverWith(world, deliveryMessageOf(post));

    // Assess
    expect(result).toBe('published');
    expect(world.posts.reads).toEqual({ get: 0, getForDelivery: 1, loadContext: 0 });
    expect(world.network.requests).toHaveLength(1);
  });

  it('the post, then its context, for a message that names neither (an older message)', async () => {
    const world = await aDeliveryWorld();
    world.seedPost();

    const result = await deliverWith(world, world.message);

    expect(result).toBe('published');
    expect(world.posts.reads).toEqual({ get: 1, getForDelivery: 0, loadContext: 1 });
  });

  it('the context again when the post no longer refers to what the message names', async () => {
    // Prepare: the message was made before the post's media changed.
    const world = await aDeliveryWorld();
    const media = aMedia({
      tenantId: TENANT_ID,
      workspaceId: WORKSPACE_ID,
      mediaId: 'med_01JD0000000000000000000002',
    });
    await world.media.put(media);
    const before = world.seedPost();
    world.seedPost({ media: [{ id: media.mediaId }], version: 2 });

    // Act
    const result = await deliverWith(world, deliveryMessageOf(before));

    // Assess: the media the post refers to now were read and handed to the network.
    expect(result).toBe('published');
    expect(world.posts.reads).toEqual({ get: 0, getForDelivery: 1, loadContext: 1 });
    expect(world.network.requests[0]?.media.map((item) => item.stored?.mediaId)).toEqual([media.mediaId]);
  });

  it('a message naming another account: the post’s own account decides', async () => {
    // Prepare: the named account is disconnected; the post's own is connected.
    const world = await aDeliveryWorld();
    const post = world.seedPost();
    const stale = { ...deliveryMessageOf(post), accountId: 'acc_01JD0000000000000000000999' };

    // Act
    const result = await deliverWith(world, stale);

    // Assess
    expect(result).toBe('published');
    expect(world.posts.reads).toEqual({ get: 0, getForDelivery: 1, loadContext: 1 });
  });

  it('the account read with the post still fails a disconnected account’s post', async () => {
    const world = await aDeliveryWorld();
    const post = world.seedPost();
    await world.tenancy.markAccountDisconnected(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID, {
      at: atDelivery(0),
      reason: 'revoked',
    });

    const result = await deliverWith(world, deliveryMessageOf(post));

    expect(result).toBe('failed');
    expect(world.posts.reads).toEqual({ get: 0, getForDelivery: 1, loadContext: 0 });
    expect((await world.stored()).error).toMatchObject({ code: 'account_disconnected' });
    expect(world.network.requests).toHaveLength(0);
  });

  it('the account again after waiting in place for the post’s time', async () => {
    const world = await aDeliveryWorld();
    const post = world.seedPost({ status: 'scheduled', scheduledAt: atDelivery(700) });

    const result = await deliverWith(world, deliveryMessageOf(post));

    expect(result).toBe('published');
    expect(world.posts.reads).toEqual({ get: 0, getForDelivery: 1, loadContext: 1 });
  });
});
