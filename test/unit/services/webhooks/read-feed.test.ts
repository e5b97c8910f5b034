import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../shared/domain/errors.js';
import { FEED_SETTLE_MS, makeReadFeed } from '../../../../shared/services/webhooks/read-feed.js';
import { NOW, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';
import { anEvent, aWebhookWorld, OTHER_WORKSPACE_ID, type WebhookWorld } from './webhook-world.js';

async function append(
  world: WebhookWorld,
  atMs: number,
  type = 'post.published',
  workspaceId = WORKSPACE_ID,
) {
  const event = anEvent(atMs, workspaceId, type);
  await world.webhooks.appendEvents([{ ...event, tenantId: TENANT_ID }]);
  return event;
}

describe('read the event feed', () => {
  it('answers the envelopes in order, without the tenant, and only the workspace’s own', async () => {
    // Prepare
    const world = aWebhookWorld();
    const second = await append(world, NOW - 60_000, 'post.failed');
    const first = await append(world, NOW - 120_000);
    await append(world, NOW - 90_000, 'post.published', OTHER_WORKSPACE_ID);

    // Act
    const page = await makeReadFeed(world)(TENANT_ID, WORKSPACE_ID, { limit: 10 });

    // Assess
    expect(page.events).toEqual([first, second]);
    expect(page.events.every((event) => !('tenantId' in event))).toBe(true);
    expect(page.nextCursor).toBeUndefined();
  });

  it(`holds back the events of the last ${FEED_SETTLE_MS / 1000} s, then shows them`, async () => {
    // Prepare
    const world = aWebhookWorld();
    const settled = await append(world, NOW - FEED_SETTLE_MS - 1);
    const fresh = await append(world, NOW - FEED_SETTLE_MS + 1);
    const read = makeReadFeed(world);

    // Act
    const before = await read(TENANT_ID, WORKSPACE_ID, { limit: 10, after: settled.id });
    world.clock.advance(2);
    const after = await read(TENANT_ID, WORKSPACE_ID, { limit: 10, after: settled.id });

    // Assess
    expect(before.events).toEqual([]);
    expect(after.events).toEqual([fresh]);
  });

  it('pages with nextCursor, narrows by types, and reads after an event id', async () => {
    // Prepare
    const world = aWebhookWorld();
    const events = [];
    for (let i = 0; i < 5; i++)
      events.push(await append(world, NOW - 60_000 + i, i % 2 ? 'post.failed' : 'post.queued'));
    const read = makeReadFeed(world);

    // Act
    const first = await read(TENANT_ID, WORKSPACE_ID, { limit: 2 });
    const rest = await read(TENANT_ID, WORKSPACE_ID, { limit: 10, after: first.nextCursor ?? '' });
    const failed = await read(TENANT_ID, WORKSPACE_ID, { limit: 10, types: ['post.failed'] });
    const afterId = await read(TENANT_ID, WORKSPACE_ID, { limit: 10, after: events[2]?.id ?? '' });

    // Assess
    expect(first.events).toEqual(events.slice(0, 2));
    expect(rest.events).toEqual(events.slice(2));
    expect(failed.events.map((e) => e.type)).toEqual(['post.failed', 'post.failed']);
    expect(afterId.events).toEqual(events.slice(3));
  });

  it('answers 400 on `after` for a position that is neither an event id nor its own cursor', async () => {
    // Prepare
    const world = aWebhookWorld();
    for (let i = 0; i < 3; i++) await append(world, NOW - 60_000 + i);
    const read = makeReadFeed(world);
    const cursor = (await read(TENANT_ID, WORKSPACE_ID, { limit: 1 })).nextCursor ?? '';

    // Act
    const garbage = await read(TENANT_ID, WORKSPACE_ID, { limit: 1, after: 'not-a-position' }).catch(
      (e: unknown) => e,
    );
    const otherTypes = await read(TENANT_ID, WORKSPACE_ID, {
      limit: 1,
      after: cursor,
      types: ['post.failed'],
    }).catch((e: unknown) => e);

    // Assess
    for (const error of [garbage, otherTypes]) {
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).details).toEqual({ after: [expect.any(String)] });
    }
  });
});
