import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIdOf, newId } from '../../../shared/domain/ids.js';
import { webhookDeliveryId } from '../../../shared/ports/webhook-store.js';

describe('webhookDeliveryId', () => {
  it('is the same for the same webhook and event, and a well-formed whd_ id carrying the event time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (atMs) => {
        const webhookId = newId('webhook');
        const eventId = newId('event', atMs);
        const id = webhookDeliveryId(webhookId, eventId);
        expect(webhookDeliveryId(webhookId, eventId)).toBe(id);
        expect(isIdOf('webhookDelivery', id)).toBe(true);
        expect(id.slice(4, 14)).toBe(eventId.slice(4, 14));
      }),
    );
  });

  it('differs for another webhook or another event', () => {
    const webhookId = newId('webhook');
    const eventId = newId('event');
    const id = webhookDeliveryId(webhookId, eventId);
    expect(webhookDeliveryId(newId('webhook'), eventId)).not.toBe(id);
    expect(webhookDeliveryId(webhookId, newId('event'))).not.toBe(id);
  });

  it('sorts deliveries by their events’ times', () => {
    const webhookId = newId('webhook');
    const earlier = webhookDeliveryId(webhookId, newId('event', 1_000));
    const later = webhookDeliveryId(webhookId, newId('event', 2_000));
    expect(earlier < later).toBe(true);
  });

  it.each(['', 'evt_short', 'pst_01J00000000000000000000000', 'evt_01J0000000000000000000000I'])(
    'refuses %j, which is not an event id',
    (eventId) => {
      expect(() => webhookDeliveryId(newId('webhook'), eventId)).toThrow(RangeError);
    },
  );
});
