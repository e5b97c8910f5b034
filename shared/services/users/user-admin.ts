import { NotFoundError } from '../../domain/errors.js';
import type { IssuedLink } from './dashboard-auth.js';
import type { UsersDeps } from './deps.js';
import { requireEmail } from './emails.js';
import { issueSetPasswordLink, OWNER_LINK_TTL_SECONDS } from './links.js';
import { createUserWithoutPassword } from './new-user.js';

/**
 * The operator's people use cases (the admin CLI): the tenant's owner, made by bootstrap, with a
 * one-time link (24 hours) to set their password.
 */
export function makeUserAdmin(deps: UsersDeps) {
  return {
    async createOwner(input: { tenantId: string; email: string }): Promise<IssuedLink> {
      const email = requireEmail(input.email);
      if (!(await deps.tenancy.getTenant(input.tenantId))) {
        throw new NotFoundError(`No tenant ${input.tenantId}.`);
      }
      const user = await createUserWithoutPassword(deps, {
        tenantId: input.tenantId,
        email,
        role: 'owner',
        workspaceIds: [],
      });
      deps.logger.info('admin: owner created', { tenantId: user.tenantId, userId: user.userId });
      return issueSetPasswordLink(deps, user, OWNER_LINK_TTL_SECONDS);
    },
  };
}

export type UserAdmin = ReturnType<typeof makeUserAdmin>;
