import { defineOperation } from '../../http/operation.js';
import { appAskedFor } from '../../networks/app-kinds.js';
import { connectAccount } from '../../operations/accounts/connect-account.js';
import { startConnect } from '../../services/accounts/start-connect.js';

/**
 * The API's connect operation as the dashboard runs it: the same pipeline (plan, the
 * `accounts:connect` permission, the rate limit, the workspace, the body's platform), but the
 * person comes back to the dashboard's own accounts page, which the service chose and so needs no
 * place on the tenant's allow-list. The return address is bound here, in code, never read from a
 * request; this variant is not in the registry, so no API or MCP caller can reach it.
 */
export function connectReturningTo(returnUrl: string) {
  return defineOperation({
    ...connectAccount,
    async handler({ deps, principal, workspaceId }, { body }) {
      return startConnect(deps, {
        principal,
        workspaceId,
        platform: body.platform,
        ...appAskedFor(body),
        trustedRedirectUri: returnUrl,
      });
    },
  });
}
