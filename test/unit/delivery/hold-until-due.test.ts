import { describe, expect, it } from 'vitest';
import {
  ALIGNED_ARRIVAL_MS,
  MAX_QUEUE_DELAY_SECONDS,
  WAIT_IN_PLACE_MS,
} from '../../../shared/domain/delivery-effects.js';
import type { DeliveryMessage, MessageQueue } from '../../../shared/ports/queues.js';
import { makeHoldUntilDue } from '../../../shared/services/delivery/hold-until-due.js';
import { aDeliveryWorld, atDelivery, DELIVERY_NOW } from '../support/in-memory-delivery-ports.js';

/** The post's time in these tests: a minute after the world's start. */
const DUE = DELIVERY_NOW + 60_000;

/**
 * A world whose post is scheduled at DUE, and a hold step whose queue notes when each message
 * would become visible again (the clock at the send, plus its delay).
 */
async function setup() {
  const world = await aDeliveryWorld();
  world.seedPost({ status: 'scheduled', scheduledAt: atDelivery(60_000) });
  const visibleAgainAt: number[] = [];
  const delays: number[] = [];
  const deliveryQueue: MessageQueue<DeliveryMessage> = {
    async send(_message, options) {
      const delaySeconds = options?.delaySeconds ?? 0;
      delays.push(delaySeconds);
      visibleAgainAt.push(world.clock.now() + delaySeconds * 1000);
    },
  };
  const holdUntilDue = makeHoldUntilDue({ ...world, deliveryQueue });
  /** The message arrives `early` ms before the post's time. */
  const arrive = (early: number) => {
    world.clock.set(DUE - early);
    return holdUntilDue(world.message, world.logger);
  };
  return { world, arrive, visibleAgainAt, delays };
}

describe('hold until due', () => {
  it('puts back messages that came at scattered moments so that they all arrive at one moment, just before the time', async () => {
    // Prepare: the messages of posts sharing one time arrive whenever their sends and delays put
    // them (SQS delays are whole seconds): here anywhere from 2 s to 14 minutes early.
    const { arrive, visibleAgainAt, delays } = await setup();
    const arrivals = [WAIT_IN_PLACE_MS + 1, 2500, 2999, 3000, 3500, 3999, 61_234, 14 * 60_000];

    // Act
    for (const early of arrivals) expect(await arrive(early)).toEqual({ kind: 'held' });

    // Assess: every one visible again at the same moment, ALIGNED_ARRIVAL_MS before the time
    // (so they fill batches together), each with a delay SQS takes (whole seconds, at least one).
    expect(visibleAgainAt).toEqual(arrivals.map(() => DUE - ALIGNED_ARRIVAL_MS));
    for (const delaySeconds of delays) {
      expect(Number.isInteger(delaySeconds)).toBe(true);
      expect(delaySeconds).toBeGreaterThanOrEqual(1);
      expect(delaySeconds).toBeLessThanOrEqual(MAX_QUEUE_DELAY_SECONDS);
    }
  });

  it('waits less than a second before putting a message back, with the longest delay that fits', async () => {
    const { world, arrive, delays } = await setup();
    await arrive(2000 + ALIGNED_ARRIVAL_MS + 300);
    // Two seconds, the margin and 0.3 s early: sent 0.3 s later, with two seconds' delay.
    expect(world.clock.now()).toBe(DUE - 2000 - ALIGNED_ARRIVAL_MS);
    expect(delays).toEqual([2]);
  });

  it.each([WAIT_IN_PLACE_MS, 700, 1])(
    'a message %i ms early waits in place until the time, never less, and is not put back',
    async (early) => {
      // Prepare
      const { world, arrive, delays } = await setup();

      // Act
      const due = await arrive(early);

      // Assess: the injected sleep moved the clock exactly to the post's time.
      expect(due.kind).toBe('due');
      expect(world.clock.now()).toBe(DUE);
      expect(delays).toEqual([]);
    },
  );

  it('a message more than 15 minutes early is dropped: the post has a schedule of its own', async () => {
    const { arrive, delays } = await setup();
    expect(await arrive(MAX_QUEUE_DELAY_SECONDS * 1000 + 1)).toEqual({ kind: 'dropped' });
    expect(delays).toEqual([]);
  });
});
