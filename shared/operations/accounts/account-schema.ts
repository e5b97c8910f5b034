import { z } from 'zod';
import { PLATFORMS } from '../../domain/platforms.js';
import type { Account } from '../../domain/tenancy.js';
import { isoTimestamp } from '../common-schemas.js';

/** What a caller may know of a connected account: never any token material. */
export const accountSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    platform: z.enum(PLATFORMS),
    displayName: z.string(),
    handle: z.string(),
    status: z.enum(['connected', 'disconnected']),
    sandbox: z.boolean().describe('True for accounts on the simulated sandbox network.'),
    connectedAt: isoTimestamp,
    createdAt: isoTimestamp,
  })
  .meta({ id: 'Account' });

export function toAccountResource(account: Account): z.input<typeof accountSchema> {
  return {
    id: account.accountId,
    workspaceId: account.workspaceId,
    platform: account.platform,
    displayName: account.displayName,
    handle: account.handle,
    status: account.status,
    sandbox: account.sandbox,
    connectedAt: account.connectedAt,
    createdAt: account.createdAt,
  };
}
