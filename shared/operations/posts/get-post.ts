import { NotFoundError } from '../../domain/errors.js';
import { defineOperation } from '../../http/operation.js';
import { noQuery } from '../common-schemas.js';
import { postPathParams, postResource, toPostResource } from './post-schemas.js';

export const getPost = defineOperation({
  id: 'getPost',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/posts/{post_id}',
  summary: 'Read a post, including its delivery status',
  description:
    "The whole post: its status (one of the status enum's values), the network's post id and URL once published, the error once failed, and the approval record.",
  toolDescription:
    "The whole post: its status, the network's post id and URL once published, the error once failed, the approval record.",
  tag: 'Posts',
  auth: 'apiKey',
  permission: 'posts:read',
  rateLimitFamily: 'posts_read',
  workspace: 'path',
  errors: ['not_found'],
  successStatus: 200,
  successDescription:
    "The post, with its delivery status, the network's post id and URL once published, or the error once failed.",
  schemas: { params: postPathParams, query: noQuery, response: postResource },
  async handler({ deps, principal, workspaceId }, { params }) {
    const post = await deps.posts.get(principal.tenant.tenantId, workspaceId, params.post_id);
    if (!post) throw new NotFoundError();
    return toPostResource(post);
  },
});
