import { assertPermission, assertPlanActive } from '../../domain/access.js';
import type { Principal } from '../../domain/tenancy.js';
import type { Operation } from '../../http/operation.js';
import type { Authenticator } from '../../services/authenticate.js';

/** 401 without a valid key, 403 plan_inactive, then 403 permission_denied for the operation's grant. */
export async function authenticateCaller(
  operation: Operation,
  authenticator: Authenticator,
  authorization: string | undefined,
): Promise<Principal> {
  const principal = await authenticator.authenticate(authorization);
  assertPlanActive(principal);
  if (operation.permission) assertPermission(principal.agent, operation.permission);
  return principal;
}
