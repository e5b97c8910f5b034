import type { z } from 'zod';
import { defineOperation, Reply } from '../../http/operation.js';
import { makeCreatePost } from '../../services/posts/create-post.js';
import { noQuery, workspacePathParams } from '../common-schemas.js';
import { createdPostResource, createPostBody, idempotencyHeaders } from './post-schemas.js';

export const createPost = defineOperation({
  id: 'createPost',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/posts',
  summary: 'Create a post (deliver now, schedule it, or keep a draft)',
  description:
    'Returns at once; delivery is asynchronous (poll the post or receive webhooks). Status is queued for publish, scheduled for scheduled, draft for draft, and pending_approval when the workspace requires approval. Send an Idempotency-Key to make retries safe: the same key replays the first answer (header Idempotent-Replayed: true) for 24 hours; the same key with another body is 422 idempotency_key_reused. Platform rules fail with 422 VALIDATION_FAILED listing every violation; workspace policies with 403 policy_violation. Drafts skip both until they are submitted, but for their account: it must be on the platform of the post (422 ACCOUNT_PLATFORM_MISMATCH). An accountId that is not an account of the workspace is 404 not_found naming it, drafts included.',
  toolDescription:
    "Returns at once; delivery is asynchronous (poll getPost, or webhooks). Starts queued (publish), scheduled, draft, or pending_approval where the workspace requires approval. Pass idempotencyKey so a retry never posts twice: the same key replays the first answer for 24 h (_meta.idempotentReplayed: true); with another body it is idempotency_key_reused (422). Platform rules: VALIDATION_FAILED (422), every violation; policies: policy_violation (403); drafts skip both, but their account must be on the post's platform (ACCOUNT_PLATFORM_MISMATCH). An accountId not of the workspace: not_found (404), drafts included.",
  tag: 'Posts',
  auth: 'apiKey',
  permission: 'posts:write',
  rateLimitFamily: 'posts_create',
  workspace: 'path',
  resources: ['idempotency-table'],
  // not_found: the workspace, or an accountId that is none of its accounts (drafts included).
  errors: ['not_found', 'VALIDATION_FAILED', 'policy_violation', 'idempotency_key_reused', 'conflict'],
  successStatus: 201,
  successDescription:
    'The post as created: its id and status (queued, scheduled, draft or pending_approval). A replay of an Idempotency-Key answers the first response again, with Idempotent-Replayed: true.',
  effects: { reachesNetwork: true },
  schemas: {
    params: workspacePathParams,
    query: noQuery,
    headers: idempotencyHeaders,
    body: createPostBody,
    response: createdPostResource,
  },
  async handler({ deps, principal, workspaceId }, { body, headers }) {
    const key = (headers as z.output<typeof idempotencyHeaders>)['idempotency-key'];
    const result = await makeCreatePost(deps)(principal, workspaceId, body, key);
    return new Reply(result.body, result.status, result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
  },
});
