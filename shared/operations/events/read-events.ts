import * as z from 'zod';
import { EVENT_TYPES } from '../../domain/events.js';
import { defineOperation } from '../../http/operation.js';
import { FEED_SETTLE_MS, makeReadFeed } from '../../services/webhooks/read-feed.js';
import { pageQuery, workspacePathParams } from '../common-schemas.js';

/** `types=post.published,post.failed`: distinct known names, in any order. */
const typesParam = z
  .string()
  .transform((text, ctx) => {
    const names = text.split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !(EVENT_TYPES as readonly string[]).includes(name));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `Unknown event name${unknown.length > 1 ? 's' : ''}: ${unknown.map((name) => JSON.stringify(name)).join(', ')}. Known: ${EVENT_TYPES.join(', ')}.`,
      });
      return z.NEVER;
    }
    return [...new Set(names)];
  })
  .describe(`Comma-separated event names; absent: all. Known: ${EVENT_TYPES.join(', ')}.`);

const readEventsQuery = z.object({
  after: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .describe(
      'An event id (the events after it), or the nextCursor of the previous page; absent: the oldest kept.',
    ),
  types: typesParam.optional(),
  limit: pageQuery.limit,
});

/** The envelope a webhook receives; `data` per type as in the document's `webhooks` section. */
const feedEvent = z
  .object({
    id: z.string().describe('evt_…: stable for one state change, the same as in webhook deliveries.'),
    type: z.string(),
    createdAt: z.string().describe('When the state change happened (ISO 8601, UTC).'),
    workspaceId: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'FeedEvent' });

export const readEvents = defineOperation({
  id: 'listEvents',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/events',
  summary: "The workspace's events, in order (for callers without a webhook receiver)",
  description: `The events webhooks deliver, oldest first, kept 30 days: poll with after=<the id of the last event you handled>, or follow nextCursor (null when nothing more is there yet). types narrows to some names. An event shows here ${FEED_SETTLE_MS / 1000} s after its state change, so that one still on its way in is never skipped. A page may hold fewer than limit events (even none) and still have a nextCursor.`,
  toolDescription:
    "The events webhooks deliver, oldest first, kept 30 days: poll with after set to the last handled event's id, or the previous page's nextCursor (null when nothing more is there yet). types narrows to some names. An event shows here 5 s after its change, so none still on its way is skipped. A page may hold fewer than limit events (even none) and still have a nextCursor.",
  tag: 'Webhooks',
  auth: 'apiKey',
  permission: 'posts:read',
  rateLimitFamily: 'other',
  workspace: 'path',
  successStatus: 200,
  successDescription:
    "A page of the workspace's events, oldest first, and `nextCursor` to read on from (null when nothing more is there yet).",
  schemas: {
    params: workspacePathParams,
    query: readEventsQuery,
    response: z.object({
      data: z.array(feedEvent),
      nextCursor: z
        .string()
        .nullable()
        .describe('Pass as `after` for the next page; null when nothing more is there yet.'),
    }),
  },
  async handler({ deps, principal, workspaceId }, { query }) {
    const page = await makeReadFeed(deps)(principal.tenant.tenantId, workspaceId, {
      limit: query.limit,
      ...(query.after && { after: query.after }),
      ...(query.types && { types: query.types }),
    });
    return { data: page.events, nextCursor: page.nextCursor ?? null };
  },
});
