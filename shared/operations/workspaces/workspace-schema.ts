import * as z from 'zod';
import { effectiveMetricsPlatforms } from '../../domain/metrics-settings.js';
import { PLATFORMS } from '../../domain/platforms.js';
import type { Workspace } from '../../domain/tenancy.js';
import { isoTimestamp } from '../common-schemas.js';

export const workspaceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: isoTimestamp,
    metricsCollection: z
      .object({
        platforms: z
          .array(z.enum(PLATFORMS))
          .describe("The networks whose posts' and accounts' metrics the workspace collects; empty: none."),
        isDefault: z
          .boolean()
          .describe(
            "True while the workspace has not chosen: every network but X, whose reads are billed per read. Set in the dashboard's workspace page.",
          ),
      })
      .describe('Which networks the metrics collection reads (docs/metrics.md "The setting").'),
  })
  .meta({ id: 'Workspace' });

export function toWorkspaceResource(workspace: Workspace): z.input<typeof workspaceSchema> {
  return {
    id: workspace.workspaceId,
    name: workspace.name,
    createdAt: workspace.createdAt,
    metricsCollection: {
      platforms: effectiveMetricsPlatforms(workspace),
      isDefault: workspace.metricsCollection === undefined,
    },
  };
}
