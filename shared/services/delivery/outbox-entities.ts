/**
 * The entities whose changes the outbox acts on. The stream's other records (the feed's events,
 * the sandbox network's ledger, API keys, workspaces…) never reach it: its event source mapping
 * filters on these (infra/constructs/workers.ts), and so does the local host's poller
 * (outboxAcceptsNewImage in shared/triggers/outbox-stream.ts), so no invocation is spent on a
 * batch with nothing to do.
 */
export const OUTBOX_ENTITIES = ['post', 'media', 'webhookDelivery', 'account'] as const;
export type OutboxEntity = (typeof OUTBOX_ENTITIES)[number];

export function isOutboxEntity(entity: unknown): entity is OutboxEntity {
  return (OUTBOX_ENTITIES as readonly unknown[]).includes(entity);
}
