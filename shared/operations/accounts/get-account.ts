import * as z from 'zod';
import {
  DAILY_QUOTAS,
  NETWORK_REPORTED_QUOTAS,
  PROJECT_QUOTA_COUNTERS,
  quotaDay,
} from '../../domain/account-quotas.js';
import { NotFoundError } from '../../domain/errors.js';
import { defineOperation } from '../../http/operation.js';
import { idOf, noQuery } from '../common-schemas.js';
import { accountDetailSchema, toAccountResource } from './account-schema.js';

export const getAccount = defineOperation({
  id: 'getAccount',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/accounts/{account_id}',
  summary: 'Read one connected social account',
  description:
    "The account record with today's use of its daily quota. OAuth tokens are stored encrypted and are never part of a response.",
  tag: 'Accounts',
  auth: 'apiKey',
  permission: 'accounts:read',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found'],
  successStatus: 200,
  successDescription: "The account, with its connection status and its usage against the network's limits.",
  schemas: {
    params: z.object({ workspace_id: idOf('workspace'), account_id: idOf('account') }),
    query: noQuery,
    response: accountDetailSchema,
  },
  async handler({ deps, principal, workspaceId }, { params }) {
    const account = await deps.tenancy.getAccount(principal.tenant.tenantId, workspaceId, params.account_id);
    if (!account) throw new NotFoundError();
    const now = deps.clock.now();
    const day = quotaDay(now);
    const quota = (deps.dailyQuotas ?? DAILY_QUOTAS)[account.platform];
    const projectCounter = PROJECT_QUOTA_COUNTERS[account.platform];
    // Each is one GetItem on the same table, read together.
    const [used, projectUsed, network] = await Promise.all([
      deps.quotas.used(account.accountId, day),
      projectCounter ? deps.quotas.used(projectCounter, day) : undefined,
      NETWORK_REPORTED_QUOTAS.has(account.platform)
        ? deps.quotas.networkReading(account.accountId)
        : undefined,
    ]);
    const resetsAt = new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 3600 * 1000).toISOString();
    return {
      ...toAccountResource(account, now),
      usage: {
        day,
        used,
        limit: quota.limit,
        unit: quota.unit,
        costPerPost: quota.costPerPost,
        resetsAt,
        ...(projectUsed !== undefined && { project: { used: projectUsed, limit: quota.limit } }),
        ...(network && {
          network: {
            used: network.used,
            limit: network.total,
            windowSeconds: network.windowSeconds,
            readAt: network.readAt,
          },
        }),
      },
    };
  },
});
