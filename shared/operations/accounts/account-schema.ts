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

/** One account with its use of today's daily quota (interface 8.5); only the single read has it. */
export const accountDetailSchema = accountSchema
  .extend({
    usage: z
      .object({
        day: z.string().describe('The UTC day counted, YYYY-MM-DD.'),
        used: z.number().int(),
        limit: z.number().int(),
        unit: z.enum(['posts', 'quota_units']),
        resetsAt: isoTimestamp,
      })
      .describe(
        "Today's use of the account's daily ceiling; a delivery past it fails with DAILY_QUOTA_EXCEEDED.",
      ),
  })
  .meta({ id: 'AccountDetail' });
