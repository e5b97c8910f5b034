/**
 * The entities whose changes the outbox acts on. The stream's other records (the feed's events,
 * the sandbox network's ledger, API keys, workspaces…) never reach it: its event source mapping
 * filters on these (infra/constructs/workers.ts), and so does the local host's poller, so no
 * invocation is spent on a batch with nothing to do.
 */
export const OUTBOX_ENTITIES = ['post', 'media', 'webhookDelivery', 'account'] as const;
export type OutboxEntity = (typeof OUTBOX_ENTITIES)[number];

export function isOutboxEntity(entity: unknown): entity is OutboxEntity {
  return (OUTBOX_ENTITIES as readonly unknown[]).includes(entity);
}

/**
 * The event source mapping's filter, as the local host's poller applies it to a stream record's
 * new image (a removal has none, and the outbox has nothing to do for one).
 */
export function outboxAcceptsNewImage(
  newImage: Readonly<Record<string, { S?: string }>> | undefined,
): boolean {
  return isOutboxEntity(newImage?.entity?.S);
}
