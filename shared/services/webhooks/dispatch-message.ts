/**
 * What the webhook-delivery queue carries: which delivery to attempt, never the delivery itself
 * (it is read fresh). Sent by the fan-out (a new delivery), the outbox (a retry or test event an
 * API request asked for) and the dispatcher itself (the next retry, or an early message put back).
 */
export interface WebhookDispatchMessage {
  tenantId: string;
  workspaceId: string;
  webhookId: string;
  deliveryId: string;
  /**
   * How many attempts the delivery had when this message was sent. A message whose delivery has
   * moved on since (another message made the attempt it was sent for) is stale and dropped, so
   * two messages for one delivery never keep two retry chains going.
   */
  attempts: number;
}
