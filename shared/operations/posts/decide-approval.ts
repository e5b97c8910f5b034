import { defineOperation } from '../../http/operation.js';
import { makeChangePost } from '../../services/posts/change-post.js';
import { noQuery } from '../common-schemas.js';
import { postPathParams, postResource, rejectPostBody, toPostResource } from './post-schemas.js';

export const approvePost = defineOperation({
  id: 'approvePost',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/posts/{post_id}/approve',
  summary: 'Approve a post that waits for approval',
  description:
    'pending_approval → queued, or scheduled while scheduledAt is still ahead. The reviewer and time are kept in approval. Any other status is 409 conflict.',
  tag: 'Approvals',
  auth: 'apiKey',
  permission: 'approvals:decide',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found', 'conflict'],
  successStatus: 200,
  successDescription: 'The post, approved: queued, or scheduled while scheduledAt is still ahead.',
  effects: { reachesNetwork: true },
  schemas: { params: postPathParams, query: noQuery, response: postResource },
  async handler({ deps, principal, workspaceId }, { params }) {
    return toPostResource(
      await makeChangePost(deps).decide(principal, workspaceId, params.post_id, { approve: true }),
    );
  },
});

export const rejectPost = defineOperation({
  id: 'rejectPost',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/posts/{post_id}/reject',
  summary: 'Reject a post that waits for approval',
  description:
    'pending_approval → rejected, with the reason and the reviewer kept in approval. Any other status is 409 conflict.',
  tag: 'Approvals',
  auth: 'apiKey',
  permission: 'approvals:decide',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found', 'conflict'],
  successStatus: 200,
  successDescription: 'The post, rejected, with the reviewer and reason in approval.',
  effects: { destructive: true },
  schemas: { params: postPathParams, query: noQuery, body: rejectPostBody, response: postResource },
  async handler({ deps, principal, workspaceId }, { params, body }) {
    const post = await makeChangePost(deps).decide(principal, workspaceId, params.post_id, {
      approve: false,
      reason: body.reason,
    });
    return toPostResource(post);
  },
});
