import { NotFoundError } from '../../domain/errors.js';
import { answerPostMetrics, missingMetricsScopes } from '../../domain/metrics-answer.js';
import { MetricsRefusedError } from '../../domain/metrics-errors.js';
import { collectsMetricsFor } from '../../domain/metrics-settings.js';
import { defineOperation } from '../../http/operation.js';
import { networkMetricsOf, postMetricsScopesOf } from '../../networks/network-metrics.js';
import { noQuery } from '../common-schemas.js';
import { postMetricsSchema } from '../metrics/metrics-schemas.js';
import { postPathParams } from './post-schemas.js';

export const getPostMetrics = defineOperation({
  id: 'getPostMetrics',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/posts/{post_id}/metrics',
  summary: "Read a published post's metrics",
  description:
    'The numbers last read from its network (only those it reports), every reading, the next one. Read 1 h, 6 h, 24 h, 3 d, 7 d and 30 d after publishing, never on this call. Nothing to show: a 409 with its code, never zeros.',
  tag: 'Posts',
  auth: 'apiKey',
  permission: 'posts:read',
  rateLimitFamily: 'posts_read',
  workspace: 'path',
  errors: [
    'not_found',
    'post_not_published',
    'metrics_unavailable',
    'metrics_missing_scopes',
    'metrics_not_collected_yet',
  ],
  successStatus: 200,
  successDescription:
    'The latest reading, every reading oldest first, the next collection and the last problem.',
  schemas: { params: postPathParams, query: noQuery, response: postMetricsSchema },
  async handler({ deps, principal, workspaceId }, { params }) {
    const tenantId = principal.tenant.tenantId;
    const post = await deps.posts.get(tenantId, workspaceId, params.post_id);
    if (!post) throw new NotFoundError();
    const answer = await answerPostMetrics(post, async () => {
      const needed = networkMetricsOf(post.platform);
      const [workspace, account] = await Promise.all([
        deps.tenancy.getWorkspace(tenantId, workspaceId),
        deps.tenancy.getAccount(tenantId, workspaceId, post.accountId),
      ]);
      return {
        networkGivesMetrics: needed !== undefined,
        workspaceCollects: workspace !== undefined && collectsMetricsFor(workspace, post.platform),
        // A post's own needs (a LinkedIn Page's post: rw_organization_admin alone), not every metrics scope.
        missingScopes: account && needed ? missingMetricsScopes(account, postMetricsScopesOf(post)) : [],
      };
    });
    if ('refusal' in answer) throw new MetricsRefusedError(answer.refusal);
    return answer.view;
  },
});
