import { newId } from '../../../../shared/domain/ids.js';
import { fixedClock } from '../../../../shared/ports/clock.js';
import type { DeliveredEvent, WebhookRecord } from '../../../../shared/ports/webhook-store.js';
import { InMemorySecretCipher } from '../../support/in-memory-secret-cipher.js';
import { InMemoryWebhookStore } from '../../support/in-memory-webhook-store.js';
import { NOW, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';

export const OTHER_TENANT_ID = 'ten_01JD0000000000000000000009';
export const OTHER_WORKSPACE_ID = 'wks_01JD0000000000000000000009';

/** The webhook use cases' ports in memory, at NOW, loopback receivers refused (as deployed). */
export function aWebhookWorld(options: { allowLoopbackHttp?: boolean } = {}) {
  const clock = fixedClock(NOW);
  return {
    clock,
    webhooks: new InMemoryWebhookStore(clock),
    secrets: new InMemorySecretCipher(),
    webhookReceivers: { allowLoopbackHttp: options.allowLoopbackHttp ?? false },
  };
}

export type WebhookWorld = ReturnType<typeof aWebhookWorld>;

/** Stores a webhook straight into the store (as another request would have), and answers it. */
export async function aStoredWebhook(
  world: WebhookWorld,
  overrides: Partial<WebhookRecord> = {},
): Promise<WebhookRecord> {
  const record: WebhookRecord = {
    webhookId: newId('webhook', NOW),
    tenantId: TENANT_ID,
    workspaceId: WORKSPACE_ID,
    url: 'https://receiver.example.com/hook',
    events: ['post.published'],
    createdAt: new Date(NOW).toISOString(),
    consecutiveFailures: 0,
    secretCiphertext: 'sealed-elsewhere',
    ...overrides,
  };
  await world.webhooks.createWebhook(record, 1000);
  return record;
}

export function anEvent(atMs: number, workspaceId = WORKSPACE_ID, type = 'post.published'): DeliveredEvent {
  return {
    id: newId('event', atMs),
    type,
    createdAt: new Date(atMs).toISOString(),
    workspaceId,
    data: { postId: 'pst_01JD0000000000000000000000' },
  };
}
