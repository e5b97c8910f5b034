import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { UserRole } from '../../domain/users.js';
import type { IssuedLink } from './dashboard-auth.js';
import type { UsersDeps } from './deps.js';
import { requireEmail } from './emails.js';
import { createInvitation } from './invite-user.js';
import { issueSetPasswordLink, OWNER_LINK_TTL_SECONDS } from './links.js';
import { createUserWithoutPassword } from './new-user.js';

/**
 * The operator's people use cases (the admin CLI, which acts as a super-admin and more): the
 * tenant's owner, made by bootstrap with a one-time link (24 hours) to set their password, and
 * invitations of any role an invitation may give.
 */
export function makeUserAdmin(deps: UsersDeps) {
  const requireTenant = async (tenantId: string) => {
    if (!(await deps.tenancy.getTenant(tenantId))) throw new NotFoundError(`No tenant ${tenantId}.`);
  };

  return {
    /** ConflictError when the email is a user's already: checked before bootstrap makes a tenant. */
    async requireEmailFree(email: string): Promise<void> {
      const normalized = requireEmail(email);
      if (await deps.users.findUserByEmail(normalized)) {
        throw new ConflictError(`A user with the email ${normalized} exists already.`);
      }
    },

    async createOwner(input: { tenantId: string; email: string }): Promise<IssuedLink> {
      const email = requireEmail(input.email);
      await requireTenant(input.tenantId);
      const user = await createUserWithoutPassword(deps, {
        tenantId: input.tenantId,
        email,
        role: 'owner',
        workspaceIds: [],
      });
      deps.logger.info('owner created', { tenantId: user.tenantId, userId: user.userId });
      return issueSetPasswordLink(deps, user, OWNER_LINK_TTL_SECONDS);
    },

    /**
     * A new one-time link for an existing user: a first link that expired, or a forgotten
     * password (setting one through the link ends every session of the user). 24 hours.
     */
    async reissueLink(input: { email: string }): Promise<IssuedLink> {
      const email = requireEmail(input.email);
      const user = await deps.users.findUserByEmail(email);
      if (!user) throw new NotFoundError(`No user with the email ${email}.`);
      deps.logger.info('set-password link reissued', { tenantId: user.tenantId, userId: user.userId });
      return issueSetPasswordLink(deps, user, OWNER_LINK_TTL_SECONDS);
    },

    async inviteUser(input: {
      tenantId: string;
      email: string;
      role: UserRole;
      workspaceIds: string[];
    }): Promise<IssuedLink> {
      await requireTenant(input.tenantId);
      return createInvitation(deps, input);
    },
  };
}

export type UserAdmin = ReturnType<typeof makeUserAdmin>;
