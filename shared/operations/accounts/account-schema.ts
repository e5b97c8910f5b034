import * as z from 'zod';
import { needsReconnect } from '../../domain/account-reconnect.js';
import { missingMetricsScopes } from '../../domain/metrics-answer.js';
import { PLATFORMS } from '../../domain/platforms.js';
import type { Account } from '../../domain/tenancy.js';
import { type AppKinds, appChoiceOf, kindOfApp } from '../../networks/app-kinds.js';
import type { UsageNotes } from '../../networks/definition.js';
import { NETWORK_DEFINITIONS } from '../../networks/definitions.js';
import { networkMetricsOf } from '../../networks/network-metrics.js';
import { isoTimestamp } from '../common-schemas.js';
import { appChoiceFields } from './app-choice-fields.js';

/** The networks' notes on one of the usage counters, each network's its own sentence. */
function usageNotes(
  counter: keyof UsageNotes,
  wording: (displayName: string, note: string) => string,
): string {
  return NETWORK_DEFINITIONS.flatMap((definition) => {
    const notes: UsageNotes | undefined = 'usageNotes' in definition ? definition.usageNotes : undefined;
    const note = notes?.[counter];
    return note === undefined ? [] : [wording(definition.displayName, note)];
  }).join(' ');
}

const onlyOn = (displayName: string, note: string) => `${displayName} only: ${note}`;

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
    ...appChoiceFields(
      (choice) =>
        `${choice.displayName} accounts (not sandbox): the kind of app it was connected through. ${choice.accountDescription}`,
    ),
    status: z.enum(['connected', 'disconnected']),
    sandbox: z.boolean().describe('True for accounts on the simulated sandbox network.'),
    scopes: z.array(z.string()).describe('The permissions the network granted (none on sandbox accounts).'),
    missingMetricsScopes: z
      .array(z.string())
      .optional()
      .describe(
        "The permissions its network's metrics need that the account was not granted (connected before they were asked for, or declined): its metrics answer metrics_missing_scopes until it is connected again. Absent: none missing.",
      ),
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

/** The kind of app a connected account came through, on a network with more than one (none for sandbox accounts). */
function appKindOf(account: Account): AppKinds {
  const choice = appChoiceOf(account.platform);
  if (choice === undefined || account.sandbox) return {};
  return { [choice.field]: kindOfApp(choice, account.networkApp) };
}

/** The metrics permissions the account lacks, as a member only when some are missing. */
function missingScopesOf(account: Account): { missingMetricsScopes?: string[] } {
  const needed = networkMetricsOf(account.platform)?.scopes ?? [];
  const missing = missingMetricsScopes(account, needed);
  return missing.length > 0 ? { missingMetricsScopes: missing } : {};
}

export function toAccountResource(account: Account, now: number): z.input<typeof accountSchema> {
  return {
    id: account.accountId,
    workspaceId: account.workspaceId,
    platform: account.platform,
    displayName: account.displayName,
    handle: account.handle,
    ...(account.avatarUrl && { avatarUrl: account.avatarUrl }),
    ...(account.networkUserId && { networkUserId: account.networkUserId }),
    ...appKindOf(account),
    status: account.status,
    sandbox: account.sandbox,
    scopes: account.scopes ?? [],
    ...missingScopesOf(account),
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
        costPerPost: z
          .number()
          .int()
          .describe(
            'What one post counts against limit, in unit: 1 for posts; the video upload in quota units.',
          ),
        resetsAt: isoTimestamp,
        project: z
          .object({ used: z.number().int(), limit: z.number().int() })
          .optional()
          .describe(usageNotes('project', onlyOn)),
        network: z
          .object({
            used: z.number().int(),
            limit: z.number().int(),
            windowSeconds: z
              .number()
              .int()
              .describe(`The network’s window: ${usageNotes('networkWindow', (_, note) => note)}`),
            readAt: isoTimestamp.describe('When the service last read it, at a delivery.'),
          })
          .optional()
          .describe(usageNotes('network', onlyOn)),
      })
      .describe(
        "Today's use of the account's daily ceiling; a delivery past it fails with DAILY_QUOTA_EXCEEDED.",
      ),
  })
  .meta({ id: 'AccountDetail' });
