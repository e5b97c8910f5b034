import * as z from 'zod';
import { effectiveMetricsPlatforms } from '../../domain/metrics-settings.js';
import { PLATFORMS } from '../../domain/platforms.js';
import type { Workspace } from '../../domain/tenancy.js';
import { NETWORK_DEFINITIONS } from '../../networks/definitions.js';
import { networkMetricsOf } from '../../networks/network-metrics.js';
import { isoTimestamp } from '../common-schemas.js';

/** The networks left out by default, by name, from their definitions. */
const BILLED_PER_READ = NETWORK_DEFINITIONS.filter(
  (definition) => networkMetricsOf(definition.platform)?.paidPerRead === true,
)
  .map((definition) => definition.displayName)
  .join(', ');

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
            `True while the workspace has not chosen: every network but those that bill each read (${BILLED_PER_READ}). Set in the dashboard's workspace page.`,
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
