import * as z from 'zod';
import { ID_PREFIXES, type IdKind } from '../domain/ids.js';

/** A path or query id of one kind. A malformed one is reported as such, never looked up. */
export function idOf(kind: IdKind) {
  return z
    .string()
    .regex(
      new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-Za-z]{1,64}$`),
      `Expected an id starting with ${ID_PREFIXES[kind]}_.`,
    )
    .describe(`${ID_DESCRIPTIONS[kind]} id (${ID_PREFIXES[kind]}_…).`);
}

/** How a parameter's description names what its id identifies. */
const ID_DESCRIPTIONS: Readonly<Record<IdKind, string>> = {
  tenant: 'Tenant',
  workspace: 'Workspace',
  account: 'Connected account',
  post: 'Post',
  media: 'Media item',
  agent: 'Agent',
  apiKey: 'API key',
  webhook: 'Webhook',
  webhookDelivery: 'Webhook delivery',
  event: 'Event',
  user: 'User',
  request: 'Request',
};

export const workspacePathParams = z.object({ workspace_id: idOf('workspace') });

export const noParams = z.object({});
export const noQuery = z.object({});

/** `limit` 1–100 (default 25) and the opaque `cursor` of the previous page (api-decisions.md#lists). */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(25).describe('Items per page, 1–100.'),
  cursor: z.string().min(1).max(2048).optional().describe('The nextCursor of the previous page.'),
};

/** `{ data: [...], nextCursor }`: every list has this shape. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
  });
}

/** A time the service answers: always UTC (`Z`). Times a caller sends take any offset (post-schemas utcTimestamp). */
export const isoTimestamp = z.iso.datetime({ offset: false });
