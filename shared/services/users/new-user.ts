import { newId } from '../../domain/ids.js';
import type { User, UserRole } from '../../domain/users.js';
import type { UsersDeps } from './deps.js';

/** Stores a user without a password (they set it through a one-time link); ConflictError on a taken email. */
export async function createUserWithoutPassword(
  deps: Pick<UsersDeps, 'users' | 'clock'>,
  input: { tenantId: string; email: string; role: UserRole; workspaceIds: string[]; invitedBy?: string },
): Promise<User> {
  const now = deps.clock.now();
  const user: User = {
    userId: newId('user', now),
    tenantId: input.tenantId,
    email: input.email,
    role: input.role,
    workspaceIds: input.workspaceIds,
    sessionEpoch: 0,
    createdAt: new Date(now).toISOString(),
    ...(input.invitedBy && { invitedBy: input.invitedBy }),
  };
  await deps.users.createUser(user);
  return user;
}
