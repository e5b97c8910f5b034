import type { UserRole } from '../../domain/users.js';

const ROLE_LABELS: Record<UserRole, string> = {
  owner: 'Owner',
  super_admin: 'Super-admin',
  workspace_admin: 'Workspace admin',
  viewer: 'Viewer',
};

/** A role as people read it. */
export function roleLabel(role: UserRole): string {
  return ROLE_LABELS[role];
}
