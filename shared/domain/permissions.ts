/** Permissions an agent may be granted (docs/api-decisions.md#auth). */
export const PERMISSIONS = [
  'posts:read',
  'posts:write',
  'media:write',
  'webhooks:manage',
  'accounts:read',
  'accounts:connect',
  'approvals:decide',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
