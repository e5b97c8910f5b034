import { assertPermission, assertPlanActive } from '../../domain/access.js';
import type { Authenticator } from '../../services/authenticate.js';
import type { Operation } from '../operation.js';
import { type ApiMiddleware, stateOf } from '../request-state.js';

/** 401 without a valid key, 403 plan_inactive, then 403 permission_denied for the operation's grant. */
export function authenticate(operation: Operation, authenticator: Authenticator): ApiMiddleware {
  return {
    before: async (request) => {
      const principal = await authenticator.authenticate(request.event.headers?.authorization);
      assertPlanActive(principal);
      if (operation.permission) assertPermission(principal.agent, operation.permission);
      stateOf(request).principal = principal;
    },
  };
}
