import * as z from 'zod';
import { answerAccountMetrics } from '../../domain/account-metrics-answer.js';
import { NotFoundError } from '../../domain/errors.js';
import { missingMetricsScopes } from '../../domain/metrics-answer.js';
import { MetricsRefusedError } from '../../domain/metrics-errors.js';
import { collectsMetricsFor } from '../../domain/metrics-settings.js';
import { defineOperation } from '../../http/operation.js';
import { accountMetricsScopesOf, networkMetricsOf } from '../../networks/network-metrics.js';
import { idOf, noQuery } from '../common-schemas.js';
import { accountMetricsSchema } from '../metrics/metrics-schemas.js';

export const getAccountMetrics = defineOperation({
  id: 'getAccountMetrics',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/accounts/{account_id}/metrics',
  summary: "Read a connected account's own metrics over time",
  description:
    'Followers and what else the network gives cheaply, one reading a day for 90 days. Never calls the network. Nothing to show: a 409 with its code, never zeros.',
  tag: 'Accounts',
  auth: 'apiKey',
  permission: 'accounts:read',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found', 'metrics_unavailable', 'metrics_missing_scopes', 'metrics_not_collected_yet'],
  successStatus: 200,
  successDescription:
    'The latest reading, every daily reading oldest first, the next one and the last problem.',
  schemas: {
    params: z.object({ workspace_id: idOf('workspace'), account_id: idOf('account') }),
    query: noQuery,
    response: accountMetricsSchema,
  },
  async handler({ deps, principal, workspaceId }, { params }) {
    const tenantId = principal.tenant.tenantId;
    const account = await deps.tenancy.getAccount(tenantId, workspaceId, params.account_id);
    if (!account) throw new NotFoundError();
    const answer = await answerAccountMetrics(account, deps.clock.now(), async () => {
      const needed = networkMetricsOf(account.platform);
      const workspace = await deps.tenancy.getWorkspace(tenantId, workspaceId);
      return {
        // A sandbox account's reading is taken with its posts' collection (take-account-reading.ts).
        networkGivesMetrics: needed !== undefined,
        workspaceCollects: workspace !== undefined && collectsMetricsFor(workspace, account.platform),
        // The account's own numbers need fewer scopes than its posts' (accountScopes).
        missingScopes: missingMetricsScopes(account, accountMetricsScopesOf(account.platform)),
      };
    });
    if ('refusal' in answer) throw new MetricsRefusedError(answer.refusal);
    return answer.view;
  },
});
