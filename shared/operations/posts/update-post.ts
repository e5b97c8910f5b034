import { defineOperation } from '../../http/operation.js';
import { makeChangePost } from '../../services/posts/change-post.js';
import { noQuery } from '../common-schemas.js';
import {
  checkAllUserTags,
  postPathParams,
  postResource,
  toPostResource,
  updatePostBody,
} from './post-schemas.js';

export const updatePost = defineOperation({
  id: 'updatePost',
  method: 'PATCH',
  path: '/v1/workspaces/{workspace_id}/posts/{post_id}',
  summary: 'Reschedule, edit or submit a post',
  description:
    'Changes scheduledAt, content, media, postType, platformOptions (replaced whole; null removes them) or status (publish, scheduled, draft) of a draft, pending_approval or scheduled post; any other status is 409 conflict. A draft submitted with status publish or scheduled is checked like a new post (422, 403). To reschedule many posts, PATCH each in turn.',
  toolDescription:
    'Changes the fields given (platformOptions replaced whole; null removes a field) of a draft, pending_approval or scheduled post; other statuses: conflict (409). status publish or scheduled submits a draft, checked like a new post (VALIDATION_FAILED, policy_violation). Many posts: call it for each.',
  tag: 'Posts',
  auth: 'apiKey',
  permission: 'posts:write',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found', 'conflict', 'VALIDATION_FAILED', 'policy_violation'],
  successStatus: 200,
  successDescription: 'The post after the change, with its new version and status.',
  schemas: {
    params: postPathParams,
    query: noQuery,
    body: updatePostBody.superRefine((body, ctx) => checkAllUserTags({ ...body, platform: undefined }, ctx)),
    response: postResource,
  },
  async handler({ deps, principal, workspaceId }, { params, body }) {
    const post = await makeChangePost(deps).update(principal, workspaceId, params.post_id, body);
    return toPostResource(post);
  },
});
