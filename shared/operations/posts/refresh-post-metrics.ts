import * as z from 'zod';
import { PLATFORMS } from '../../domain/platforms.js';
import type { Post } from '../../domain/posts.js';
import { defineOperation } from '../../http/operation.js';
import { makeRefreshPostMetrics } from '../../services/metrics/refresh-post-metrics.js';
import { noQuery } from '../common-schemas.js';
import { postMetricValues } from '../metrics/metrics-schemas.js';
import { postPathParams } from './post-schemas.js';

const refreshAnswer = z
  .object({
    postId: z.string(),
    platform: z.enum(PLATFORMS),
    nextCollectionAt: z.iso
      .datetime({ offset: false })
      .describe('When the worker reads them: now, or an earlier due time.'),
    latest: z
      .object({
        collectedAt: z.iso.datetime({ offset: false }),
        metrics: postMetricValues,
      })
      .nullable()
      .describe('The last stored reading; null: none yet.'),
  })
  .meta({ id: 'PostMetricsRefresh' });

function toAnswer(post: Post): z.infer<typeof refreshAnswer> {
  const latest = post.metrics?.readings.at(-1);
  return {
    postId: post.postId,
    platform: post.platform,
    nextCollectionAt: post.metrics?.collection?.nextCollectAt as string,
    latest: latest ? { collectedAt: latest.collectedAt, metrics: latest.metrics } : null,
  };
}

export const refreshPostMetrics = defineOperation({
  id: 'refreshPostMetrics',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/posts/{post_id}/metrics/refresh',
  summary: "Read a published post's metrics again now",
  description:
    'Its next collection moves to now; read within seconds (then GET …/metrics). Once per post per 15 min, else 429.',
  tag: 'Posts',
  auth: 'apiKey',
  permission: 'posts:write',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found', 'post_not_published', 'metrics_unavailable', 'rate_limited'],
  successStatus: 202,
  successDescription: 'The collection is due now; the reading stored before it, if any.',
  effects: { reachesNetwork: true },
  schemas: { params: postPathParams, query: noQuery, response: refreshAnswer },
  async handler({ deps, principal, workspaceId }, { params }) {
    const post = await makeRefreshPostMetrics(deps)(principal.tenant.tenantId, workspaceId, params.post_id);
    return toAnswer(post);
  },
});
