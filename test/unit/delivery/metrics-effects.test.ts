import { describe, expect, it } from 'vitest';
import { deliveryEffects, SCHEDULE_LEAD_MS } from '../../../shared/domain/delivery-effects.js';
import { aPost } from './support.js';

const NOW = Date.UTC(2030, 0, 1, 12);
const at = (msFromNow: number) => new Date(NOW + msFromNow).toISOString();
const collecting = (nextCollectAt: string, version = 2) =>
  aPost({
    status: 'published',
    version,
    metrics: { readings: [], collection: { checks: 0, nextCollectAt } },
  });

describe('the effects of a published post’s metrics collection', () => {
  it('a first collection an hour away gets a one-time schedule a minute before it', () => {
    const before = aPost({ status: 'publishing' });
    expect(deliveryEffects(before, collecting(at(3600_000)), NOW)).toEqual({
      schedule: { fireAt: new Date(NOW + 3600_000 - SCHEDULE_LEAD_MS) },
    });
  });

  it('a collection within 15 minutes (a rate limit’s retry) gets a delayed message', () => {
    expect(deliveryEffects(collecting(at(0), 2), collecting(at(120_000), 3), NOW)).toEqual({
      enqueue: { delaySeconds: 120 },
    });
  });

  it('a write that keeps the collection time, or ends the schedule, asks for nothing', () => {
    const before = collecting(at(3600_000), 2);
    expect(deliveryEffects(before, collecting(at(3600_000), 3), NOW)).toEqual({});
    expect(
      deliveryEffects(before, aPost({ status: 'published', version: 3, metrics: { readings: [] } }), NOW),
    ).toEqual({});
  });

  it('a post whose id is still to come is woken for its id, not its metrics', () => {
    const after = aPost({
      status: 'published',
      version: 2,
      delivery: { postIdFollowUp: { progress: '{}', checks: 0, since: at(0), nextCheckAt: at(60_000) } },
      metrics: { readings: [], collection: { checks: 0, nextCollectAt: at(3600_000) } },
    });
    expect(deliveryEffects(aPost({ status: 'publishing' }), after, NOW)).toEqual({
      enqueue: { delaySeconds: 60 },
    });
  });
});
