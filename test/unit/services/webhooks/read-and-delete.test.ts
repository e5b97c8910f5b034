import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../../shared/domain/errors.js';
import { makeDeleteWebhook } from '../../../../shared/services/webhooks/delete-webhook.js';
import { makeGetWebhook } from '../../../../shared/services/webhooks/get-webhook.js';
import { makeListDeliveries } from '../../../../shared/services/webhooks/list-deliveries.js';
import { NOW, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';
import {
  anEvent,
  aStoredWebhook,
  aWebhookWorld,
  OTHER_TENANT_ID,
  OTHER_WORKSPACE_ID,
} from './webhook-world.js';

describe('read and delete a webhook', () => {
  it('reads a webhook of the workspace, without its secret', async () => {
    // Prepare
    const world = aWebhookWorld();
    const stored = await aStoredWebhook(world);

    // Act
    const webhook = await makeGetWebhook(world)(TENANT_ID, WORKSPACE_ID, stored.webhookId);

    // Assess
    const { secretCiphertext: _secret, ...view } = stored;
    expect(webhook).toEqual(view);
  });

  it.each([
    ['another tenant', OTHER_TENANT_ID, WORKSPACE_ID],
    ['another workspace', TENANT_ID, OTHER_WORKSPACE_ID],
  ])(
    'answers 404 to %s for every read and the delete, and deletes nothing',
    async (_case, tenantId, workspaceId) => {
      // Prepare
      const world = aWebhookWorld();
      const stored = await aStoredWebhook(world);

      // Act
      const outcomes = await Promise.all([
        makeGetWebhook(world)(tenantId, workspaceId, stored.webhookId).catch((e: unknown) => e),
        makeListDeliveries(world)(tenantId, workspaceId, stored.webhookId, { limit: 10 }).catch(
          (e: unknown) => e,
        ),
        makeDeleteWebhook(world)(tenantId, workspaceId, stored.webhookId).catch((e: unknown) => e),
      ]);

      // Assess
      for (const outcome of outcomes) expect(outcome).toBeInstanceOf(NotFoundError);
      expect(world.webhooks.allWebhookRecords()).toEqual([stored]);
    },
  );

  it('deletes at once: a second delete and every read answer 404', async () => {
    // Prepare
    const world = aWebhookWorld();
    const stored = await aStoredWebhook(world);
    const remove = makeDeleteWebhook(world);

    // Act
    await remove(TENANT_ID, WORKSPACE_ID, stored.webhookId);
    const again = await remove(TENANT_ID, WORKSPACE_ID, stored.webhookId).catch((e: unknown) => e);
    const read = await makeGetWebhook(world)(TENANT_ID, WORKSPACE_ID, stored.webhookId).catch(
      (e: unknown) => e,
    );

    // Assess
    expect(again).toBeInstanceOf(NotFoundError);
    expect(read).toBeInstanceOf(NotFoundError);
    expect(world.webhooks.allWebhookRecords()).toEqual([]);
  });

  it("lists a webhook's deliveries newest first, by status when asked, and no other webhook's", async () => {
    // Prepare
    const world = aWebhookWorld();
    const webhook = await aStoredWebhook(world);
    const other = await aStoredWebhook(world);
    const scope = { tenantId: TENANT_ID, workspaceId: WORKSPACE_ID };
    const made = [];
    for (let i = 0; i < 3; i++) {
      const event = anEvent(NOW + i * 1000);
      made.push(
        (
          await world.webhooks.createDelivery({
            ...scope,
            webhookId: webhook.webhookId,
            event,
            createdAt: event.createdAt,
          })
        ).delivery,
      );
      await world.webhooks.createDelivery({
        ...scope,
        webhookId: other.webhookId,
        event,
        createdAt: event.createdAt,
      });
    }
    const [oldest, middle, newest] = made;
    await world.webhooks.recordAttempt(
      { ...scope, webhookId: webhook.webhookId, deliveryId: middle?.deliveryId ?? '' },
      {
        attempt: { at: new Date(NOW).toISOString(), durationMs: 3, responseStatus: 200 },
        status: 'succeeded',
      },
      0,
    );
    const list = makeListDeliveries(world);

    // Act
    const all = await list(TENANT_ID, WORKSPACE_ID, webhook.webhookId, { limit: 10 });
    const pending = await list(TENANT_ID, WORKSPACE_ID, webhook.webhookId, { limit: 10, status: 'pending' });

    // Assess
    expect(all.items.map((d) => d.deliveryId)).toEqual([newest, middle, oldest].map((d) => d?.deliveryId));
    expect(pending.items.map((d) => d.deliveryId)).toEqual([newest, oldest].map((d) => d?.deliveryId));
  });
});
