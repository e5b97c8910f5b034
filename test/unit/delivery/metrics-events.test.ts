import { describe, expect, it } from 'vitest';
import { postEvents } from '../../../shared/domain/events.js';
import { toDeliveredEnvelope } from '../../../shared/domain/webhooks/payloads.js';
import { aPost } from './support.js';

const reading = (collectedAt: string, likes: number) => ({
  collectedAt,
  metrics: { likes, impressions: 10 },
});
const published = (version: number, readings: ReturnType<typeof reading>[]) =>
  aPost({
    status: 'published',
    version,
    updatedAt: readings.at(-1)?.collectedAt ?? '2030-01-01T12:00:00.000Z',
    metrics: { readings },
  });

describe('post.metrics', () => {
  it('is emitted when a collection changes the numbers, with the newest reading', () => {
    const first = reading('2030-01-01T13:00:00.000Z', 3);
    const events = postEvents(published(2, []), published(3, [first]));
    expect(events.map((event) => event.type)).toEqual(['post.metrics']);
    const after = published(3, [first]);
    expect(events[0]?.data).toEqual({
      postId: after.postId,
      platform: after.platform,
      accountId: after.accountId,
      collectedAt: first.collectedAt,
      metrics: { likes: 3, impressions: 10 },
    });
    // The delivered body passes its schema (the dispatcher validates it the same way).
    expect(toDeliveredEnvelope(events[0] as never).data).toEqual(events[0]?.data);
  });

  it('is not emitted for a reading of the same numbers, nor for a write that adds no reading', () => {
    const first = reading('2030-01-01T13:00:00.000Z', 3);
    const same = reading('2030-01-01T18:00:00.000Z', 3);
    expect(postEvents(published(3, [first]), published(4, [first, same]))).toEqual([]);
    expect(postEvents(published(3, [first]), published(4, [first]))).toEqual([]);
  });

  it('is emitted again when a later reading moves', () => {
    const first = reading('2030-01-01T13:00:00.000Z', 3);
    const later = reading('2030-01-01T18:00:00.000Z', 9);
    expect(
      postEvents(published(3, [first]), published(4, [first, later])).map((event) => event.type),
    ).toEqual(['post.metrics']);
  });
});
