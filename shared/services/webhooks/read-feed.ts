import { InvalidRequestError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { DeliveredEvent, EventFeed } from '../../ports/webhook-store.js';

/**
 * How long after its state change an event first shows in the feed. Events reach the feed through
 * the table's stream, the outbox and the events queue, normally within a second or two, and not
 * always in the order of their ids (which carry the time of the change). Holding back the last few
 * seconds keeps a reader polling at the head from stepping past an event still on its way in.
 */
export const FEED_SETTLE_MS = 5_000;

export interface FeedRequest {
  /** An event id (exclusive) or the nextCursor of a previous page with the same types. */
  after?: string;
  types?: string[];
  limit: number;
}

export interface FeedPage {
  events: DeliveredEvent[];
  nextCursor?: string;
}

/**
 * Read the workspace's event feed (`GET …/events`):
 * 1. from `after`, oldest first, only `types` when given, within the 30 days kept;
 * 2. up to FEED_SETTLE_MS ago;
 * 3. each event as a webhook receives it: the envelope, without the tenant that routes it.
 * A position that is neither an event id nor one of this query's cursors is a 400 on `after`.
 */
export function makeReadFeed(deps: { webhooks: EventFeed; clock: Clock }) {
  return async function readFeed(
    tenantId: string,
    workspaceId: string,
    request: FeedRequest,
  ): Promise<FeedPage> {
    let page: Awaited<ReturnType<EventFeed['readEvents']>>;
    try {
      page = await deps.webhooks.readEvents(tenantId, workspaceId, {
        ...request,
        createdBefore: new Date(deps.clock.now() - FEED_SETTLE_MS).toISOString(),
      });
    } catch (error) {
      if (error instanceof InvalidRequestError && error.details?.cursor) {
        throw new InvalidRequestError('after is neither an event id nor a nextCursor of this query.', {
          after: error.details.cursor,
        });
      }
      throw error;
    }
    return {
      events: page.items.map(({ tenantId: _routingOnly, ...event }) => event),
      ...(page.nextCursor && { nextCursor: page.nextCursor }),
    };
  };
}
