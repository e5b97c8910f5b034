import * as z from 'zod';
import { defineOperation } from '../../http/operation.js';
import { disconnectAccount as disconnect } from '../../services/accounts/disconnect-account.js';
import { idOf, noQuery } from '../common-schemas.js';

export const disconnectAccount = defineOperation({
  id: 'disconnectAccount',
  method: 'DELETE',
  path: '/v1/workspaces/{workspace_id}/accounts/{account_id}',
  summary: 'Disconnect a social account',
  description:
    'The account becomes disconnected (reason disconnected_by_user) and its tokens are deleted; account.disconnected is emitted. The service then asks the network to revoke the grant, where the network allows it; that step never fails the call. Posts to the account are refused until the same network user is connected again (POST …/accounts/connect), which keeps its id. Sandbox accounts disconnect the same way; make a new one with the admin CLI. Disconnecting an account that is already disconnected changes nothing.',
  toolDescription:
    'The account becomes disconnected (reason disconnected_by_user), its tokens are deleted and account.disconnected is emitted; the service then asks the network to revoke the grant where it can, which never fails the call. Posts to it are refused until the same network user is connected again (connectAccount, same id). Sandbox accounts too (a new one: the admin CLI). Already disconnected: no change.',
  tag: 'Accounts',
  auth: 'apiKey',
  permission: 'accounts:connect',
  rateLimitFamily: 'other',
  workspace: 'path',
  resources: ['network-apps', 'oauth-tokens-decrypt'],
  errors: ['not_found'],
  effects: { destructive: true, idempotent: true, reachesNetwork: true },
  successStatus: 204,
  successDescription:
    "Disconnected: the account's tokens are deleted and account.disconnected is emitted; posts to it are refused until it is connected again.",
  schemas: {
    params: z.object({ workspace_id: idOf('workspace'), account_id: idOf('account') }),
    query: noQuery,
    response: z.undefined(),
  },
  async handler({ deps, principal, workspaceId, logger }, { params }) {
    await disconnect(
      deps,
      { tenantId: principal.tenant.tenantId, workspaceId, accountId: params.account_id },
      logger,
    );
    return undefined;
  },
});
