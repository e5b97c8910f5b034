import { PermissionDeniedError } from '../../domain/errors.js';
import { isTenantAdmin } from '../../domain/user-access.js';
import { userView } from '../../domain/users.js';
import { changePassword } from './change-password.js';
import type { DashboardAuth } from './dashboard-auth.js';
import type { UsersDeps } from './deps.js';
import { inviteUser } from './invite-user.js';
import { resolveSession, signOut } from './sessions.js';
import { peekSetPasswordLink, setPasswordWithLink } from './set-password-link.js';
import { signIn } from './sign-in.js';
import { makeSignInThrottle } from './throttle.js';

/** The dashboard's people use cases, each in its own file; this only wires them together. */
export function makeDashboardAuth(deps: UsersDeps): DashboardAuth {
  const throttle = makeSignInThrottle(deps);
  return {
    signIn: (input) => signIn(deps, throttle, input),
    resolveSession: (sessionToken) => resolveSession(deps, sessionToken),
    signOut: (sessionToken) => signOut(deps, sessionToken),
    changePassword: (user, input) => changePassword(deps, throttle, user, input),
    inviteUser: (by, input) => inviteUser(deps, by, input),
    peekSetPasswordLink: (token) => peekSetPasswordLink(deps, token),
    setPasswordWithLink: (token, password) => setPasswordWithLink(deps, token, password),
    async listUsers(by) {
      if (!isTenantAdmin(by)) throw new PermissionDeniedError('users:read');
      const users = await deps.users.listUsers(by.tenantId);
      return users.map(userView).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
  };
}
