import * as z from 'zod';
import { needsReconnect } from '../../domain/account-reconnect.js';
import { LINKEDIN_APP_KINDS } from '../../domain/linkedin-apps.js';
import { PLATFORMS } from '../../domain/platforms.js';
import type { Account } from '../../domain/tenancy.js';
import { linkedInAppKindOf } from '../../networks/linkedin/apps.js';
import { isoTimestamp } from '../common-schemas.js';

/** What a caller may know of a connected account: never any token material. */
export const accountSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    platform: z.enum(PLATFORMS),
    displayName: z.string(),
    handle: z.string(),
    avatarUrl: z
      .string()
      .optional()
      .describe("The profile picture's address on the network, where it gives one."),
    networkUserId: z
      .string()
      .optional()
      .describe("The account's own id on the network (absent on sandbox accounts)."),
    linkedinApp: z
      .enum(LINKEDIN_APP_KINDS)
      .optional()
      .describe(
        'LinkedIn accounts (not sandbox): the kind of app it was connected through. Only a community account can post as a Page (platformOptions.linkedin.author).',
      ),
    status: z.enum(['connected', 'disconnected']),
    sandbox: z.boolean().describe('True for accounts on the simulated sandbox network.'),
    scopes: z.array(z.string()).describe('The permissions the network granted (none on sandbox accounts).'),
    tokenExpiresAt: isoTimestamp
      .optional()
      .describe(
        'When the access token ends, where the network says. The service renews it before use when the network gave a refresh token.',
      ),
    needsReconnect: z
      .boolean()
      .describe(
        'True when the person must connect the account again: it is disconnected, or its token ends within 7 days with no refresh token to renew it, or its refresh token ends within 7 days. Connecting the same network user again keeps the id.',
      ),
    connectedAt: isoTimestamp,
    createdAt: isoTimestamp,
    disconnectedAt: isoTimestamp.optional().describe('When it was disconnected (status disconnected).'),
    disconnectReason: z
      .string()
      .optional()
      .describe(
        'Why: refresh_refused, token_expired, disconnected_by_user, or the sandbox/network reason (status disconnected).',
      ),
  })
  .meta({ id: 'Account' });

/** ISO 8601 in the one form the API answers with (UTC, milliseconds), whatever a network sent. */
const utc = (at: string) => new Date(at).toISOString();

export function toAccountResource(account: Account, now: number): z.input<typeof accountSchema> {
  return {
    id: account.accountId,
    workspaceId: account.workspaceId,
    platform: account.platform,
    displayName: account.displayName,
    handle: account.handle,
    ...(account.avatarUrl && { avatarUrl: account.avatarUrl }),
    ...(account.networkUserId && { networkUserId: account.networkUserId }),
    ...(account.platform === 'linkedin' &&
      !account.sandbox && { linkedinApp: linkedInAppKindOf(account.networkApp) }),
    status: account.status,
    sandbox: account.sandbox,
    scopes: account.scopes ?? [],
    ...(account.tokenExpiresAt && { tokenExpiresAt: utc(account.tokenExpiresAt) }),
    needsReconnect: needsReconnect(account, now),
    connectedAt: account.connectedAt,
    createdAt: account.createdAt,
    ...(account.disconnectedAt && { disconnectedAt: utc(account.disconnectedAt) }),
    ...(account.disconnectReason && { disconnectReason: account.disconnectReason }),
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
        project: z
          .object({ used: z.number().int(), limit: z.number().int() })
          .optional()
          .describe(
            "YouTube only: today's use of the Google project's units by every account together, same day and unit; a delivery past it fails with PROJECT_QUOTA_EXCEEDED.",
          ),
        network: z
          .object({
            used: z.number().int(),
            limit: z.number().int(),
            windowSeconds: z
              .number()
              .int()
              .describe('The network’s window: Instagram’s is a rolling 24 hours.'),
            readAt: isoTimestamp.describe('When the service last read it, at a delivery.'),
          })
          .optional()
          .describe(
            "Instagram only: the network's own count of the account's posts (content_publishing_limit) as last read before a publish; absent until one was read in the last two days. Posts made outside the service count too.",
          ),
      })
      .describe(
        "Today's use of the account's daily ceiling; a delivery past it fails with DAILY_QUOTA_EXCEEDED.",
      ),
  })
  .meta({ id: 'AccountDetail' });
