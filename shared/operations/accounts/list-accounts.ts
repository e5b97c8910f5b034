import * as z from 'zod';
import { normalizePlatform } from '../../domain/platforms.js';
import { defineOperation } from '../../http/operation.js';
import { platformsDescribed } from '../../networks/definitions.js';
import { pageOf, pageQuery, workspacePathParams } from '../common-schemas.js';
import { accountSchema, toAccountResource } from './account-schema.js';

export const listAccounts = defineOperation({
  id: 'listAccounts',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/accounts',
  summary: 'List the connected social accounts of a workspace',
  description: 'Accounts that posts of this workspace can publish from. Filter by platform with `platform`.',
  tag: 'Accounts',
  auth: 'apiKey',
  permission: 'accounts:read',
  rateLimitFamily: 'other',
  workspace: 'path',
  successStatus: 200,
  successDescription:
    "A page of the workspace's connected accounts, filtered by `platform` when given; `nextCursor` while more remain.",
  schemas: {
    params: workspacePathParams,
    query: z.object({
      ...pageQuery,
      platform: z
        .string()
        .transform((value, ctx) => {
          const platform = normalizePlatform(value);
          if (!platform) ctx.addIssue({ code: 'custom', message: 'Unknown platform.' });
          return platform;
        })
        .optional()
        .describe(platformsDescribed()),
    }),
    response: pageOf(accountSchema),
  },
  async handler({ deps, principal, workspaceId }, { query }) {
    const page = await deps.tenancy.listAccounts(
      principal.tenant.tenantId,
      workspaceId,
      { limit: query.limit, ...(query.cursor && { cursor: query.cursor }) },
      query.platform ? { platform: query.platform } : undefined,
    );
    const now = deps.clock.now();
    return {
      data: page.items.map((account) => toAccountResource(account, now)),
      nextCursor: page.nextCursor ?? null,
    };
  },
});
