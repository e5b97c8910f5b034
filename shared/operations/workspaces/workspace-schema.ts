import * as z from 'zod';
import type { Workspace } from '../../domain/tenancy.js';
import { isoTimestamp } from '../common-schemas.js';

export const workspaceSchema = z
  .object({ id: z.string(), name: z.string(), createdAt: isoTimestamp })
  .meta({ id: 'Workspace' });

export function toWorkspaceResource(workspace: Workspace): z.input<typeof workspaceSchema> {
  return { id: workspace.workspaceId, name: workspace.name, createdAt: workspace.createdAt };
}
