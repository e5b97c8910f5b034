import { z } from 'zod';
import { defineOperation } from '../../shared/http/operation.js';
import { noParams, noQuery, workspacePathParams } from '../../shared/operations/common-schemas.js';

/**
 * Operations that exist only in tests, to drive parts of the shared middleware stack that the
 * current registry does not reach yet (a JSON body, a workspace-less path). They run through
 * exactly the same makeOperationHandler as the real ones.
 */
export const echoBody = defineOperation({
  id: 'testEchoBody',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/echo',
  summary: 'test',
  description: 'test',
  tag: 'Test',
  auth: 'apiKey',
  permission: 'posts:write',
  rateLimitFamily: 'posts_create',
  workspace: 'path',
  successStatus: 201,
  schemas: {
    params: workspacePathParams,
    query: noQuery,
    body: z.strictObject({ text: z.string().min(1).max(10), count: z.number().int().optional() }),
    response: z.object({ workspaceId: z.string(), text: z.string(), count: z.number().optional() }),
  },
  async handler({ workspaceId }, { body }) {
    return { workspaceId, ...body, secret: 'must be dropped by the response schema' };
  },
});

export const whichWorkspace = defineOperation({
  id: 'testWhichWorkspace',
  method: 'GET',
  path: '/v1/which-workspace',
  summary: 'test',
  description: 'test',
  tag: 'Test',
  auth: 'apiKey',
  rateLimitFamily: 'other',
  workspace: 'implicit',
  successStatus: 200,
  schemas: { params: noParams, query: noQuery, response: z.object({ workspaceId: z.string() }) },
  async handler({ workspaceId }) {
    return { workspaceId };
  },
});

export const alwaysFails = defineOperation({
  id: 'testAlwaysFails',
  method: 'GET',
  path: '/v1/always-fails',
  summary: 'test',
  description: 'test',
  tag: 'Test',
  auth: 'none',
  rateLimitFamily: 'other',
  workspace: 'none',
  successStatus: 200,
  schemas: { params: noParams, query: noQuery, response: z.object({}) },
  async handler() {
    throw new Error('database password is hunter2 at /srv/secret.ts:12');
  },
});
