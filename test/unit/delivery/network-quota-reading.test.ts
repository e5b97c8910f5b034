import { describe, expect, it } from 'vitest';
import type { NetworkQuotaReading } from '../../../shared/domain/account-quotas.js';
import type { Connector, PublishRequest } from '../../../shared/ports/connector.js';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import {
  ACCOUNT_ID,
  aDeliveryWorld,
  atDelivery,
  InMemoryAccountQuotas,
} from '../support/in-memory-delivery-ports.js';

const reading = (used: number, readAt: string): NetworkQuotaReading => ({
  used,
  total: 50,
  windowSeconds: 86_400,
  readAt,
});

/** A connector that reports the readings it is given, then publishes. */
function reportingConnector(...readings: NetworkQuotaReading[]): Connector {
  return {
    async publish(request: PublishRequest) {
      for (const each of readings) await request.recordQuota?.(each);
      return { kind: 'published', platformPostId: 'p1', platformPostUrl: 'https://network.example/p1' };
    },
  };
}

describe('the network’s own quota reading, kept by the worker', () => {
  it('keeps the latest reading a connector reports, on the account’s counter store', async () => {
    const world = await aDeliveryWorld();
    world.seedPost();
    const connector = reportingConnector(reading(3, atDelivery(0)), reading(4, atDelivery(1000)));

    const result = await makeDeliverPost({ ...world, connectorFor: () => connector })(world.message);

    expect(result).toBe('published');
    expect(await world.quotas.networkReading(ACCOUNT_ID)).toEqual(reading(4, atDelivery(1000)));
  });

  it('never keeps an older reading over a newer one', async () => {
    const quotas = new InMemoryAccountQuotas();
    await quotas.recordNetworkReading(ACCOUNT_ID, reading(4, atDelivery(1000)));
    await quotas.recordNetworkReading(ACCOUNT_ID, reading(3, atDelivery(0)));
    expect(await quotas.networkReading(ACCOUNT_ID)).toEqual(reading(4, atDelivery(1000)));
  });

  it('publishes even when the reading cannot be kept, with a warning', async () => {
    const world = await aDeliveryWorld();
    world.seedPost();
    const quotas = new InMemoryAccountQuotas();
    quotas.recordNetworkReading = async () => {
      throw new Error('table unavailable');
    };

    const result = await makeDeliverPost({
      ...world,
      quotas,
      connectorFor: () => reportingConnector(reading(3, atDelivery(0))),
    })(world.message);

    expect(result).toBe('published');
    expect(world.logger.entries).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'the network quota reading was not kept' }),
    );
  });
});
