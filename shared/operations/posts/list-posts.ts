import type { z } from 'zod';
import { defineOperation } from '../../http/operation.js';
import { pageOf, pageQuery, workspacePathParams } from '../common-schemas.js';
import {
  checkExternalIdFilters,
  checkScheduledRange,
  listPostsQuery,
  postResource,
  toPostResource,
} from './post-schemas.js';

export const listPosts = defineOperation({
  id: 'listPosts',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/posts',
  summary: 'List posts (status=scheduled: the scheduled ones by time, to check for collisions)',
  description:
    'status=scheduled lists scheduled posts by scheduledAt ascending (served by an index; scheduledFrom/scheduledTo narrow the range); externalId or externalIdPrefix lists by externalId (an index too; status and the range then filter); every other listing is newest first. accountId and platform filter. A page may hold fewer than limit posts; follow nextCursor until it is null.',
  toolDescription:
    'Status scheduled: by scheduledAt ascending (scheduledFrom, scheduledTo narrow it); externalId(Prefix): by externalId; else newest first. accountId, platform filter. A page may hold fewer than limit posts; pass nextCursor as cursor until null.',
  tag: 'Posts',
  auth: 'apiKey',
  permission: 'posts:read',
  rateLimitFamily: 'posts_read',
  workspace: 'path',
  successStatus: 200,
  successDescription:
    "A page of the workspace's posts (the scheduled ones by scheduledAt when status=scheduled), with `nextCursor` while more remain.",
  schemas: {
    params: workspacePathParams,
    query: listPostsQuery
      .extend(pageQuery)
      .superRefine(checkScheduledRange)
      .superRefine(checkExternalIdFilters),
    response: pageOf(postResource),
  },
  async handler({ deps, principal, workspaceId }, { query }) {
    const page = await deps.posts.list(
      principal.tenant.tenantId,
      workspaceId,
      query as z.output<typeof listPostsQuery> & {
        limit: number;
        cursor?: string;
      },
    );
    return { data: page.items.map(toPostResource), nextCursor: page.nextCursor ?? null };
  },
});
