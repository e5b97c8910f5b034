import { z } from 'zod';
import { NotFoundError } from '../../domain/errors.js';
import { defineOperation } from '../../http/operation.js';
import { idOf, noQuery } from '../common-schemas.js';
import { accountSchema, toAccountResource } from './account-schema.js';

export const getAccount = defineOperation({
  id: 'getAccount',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/accounts/{account_id}',
  summary: 'Read one connected social account',
  description: 'The account record. OAuth tokens are stored encrypted and are never part of a response.',
  tag: 'Accounts',
  auth: 'apiKey',
  permission: 'accounts:read',
  rateLimitFamily: 'other',
  workspace: 'path',
  successStatus: 200,
  schemas: {
    params: z.object({ workspace_id: idOf('workspace'), account_id: idOf('account') }),
    query: noQuery,
    response: accountSchema,
  },
  async handler({ deps, principal, workspaceId }, { params }) {
    const account = await deps.tenancy.getAccount(principal.tenant.tenantId, workspaceId, params.account_id);
    if (!account) throw new NotFoundError();
    return toAccountResource(account);
  },
});
