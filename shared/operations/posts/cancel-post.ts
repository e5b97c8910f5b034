import { defineOperation } from '../../http/operation.js';
import { makeChangePost } from '../../services/posts/change-post.js';
import { noQuery } from '../common-schemas.js';
import { postPathParams, postResource, toPostResource } from './post-schemas.js';

export const cancelPost = defineOperation({
  id: 'cancelPost',
  method: 'DELETE',
  path: '/v1/workspaces/{workspace_id}/posts/{post_id}',
  summary: 'Cancel a post that has not been sent',
  description:
    'A draft, pending_approval, scheduled or queued post becomes cancelled and is never delivered; the post stays readable. Any other status is 409 conflict.',
  tag: 'Posts',
  auth: 'apiKey',
  permission: 'posts:write',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found', 'conflict'],
  successStatus: 200,
  successDescription: 'The post, now cancelled.',
  effects: { destructive: true, idempotent: true },
  schemas: { params: postPathParams, query: noQuery, response: postResource },
  async handler({ deps, principal, workspaceId }, { params }) {
    return toPostResource(await makeChangePost(deps).cancel(principal, workspaceId, params.post_id));
  },
});
