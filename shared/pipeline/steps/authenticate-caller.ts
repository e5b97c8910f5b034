import { assertPermission, assertPlanActive } from '../../domain/access.js';
import type { Principal } from '../../domain/tenancy.js';
import type { Operation } from '../../http/operation.js';
import type { Authenticator } from '../../services/authenticate.js';

/**
 * 401 without a valid key, 403 plan_inactive, then 403 permission_denied for the operation's grant.
 * A caller the transport has already identified (a dashboard user's session) skips only the key.
 */
export async function authenticateCaller(
  operation: Operation,
  authenticator: Authenticator,
  authorization: string | undefined,
  identified?: Principal,
): Promise<Principal> {
  const principal = identified ?? (await authenticator.authenticate(authorization));
  assertPlanActive(principal);
  if (operation.permission) assertPermission(principal.agent, operation.permission);
  return principal;
}
