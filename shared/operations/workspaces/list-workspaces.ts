import * as z from 'zod';
import { scopeCovers } from '../../domain/access.js';
import { defineOperation } from '../../http/operation.js';
import { noParams, pageOf, pageQuery } from '../common-schemas.js';
import { toWorkspaceResource, workspaceSchema } from './workspace-schema.js';

export const listWorkspaces = defineOperation({
  id: 'listWorkspaces',
  method: 'GET',
  path: '/v1/workspaces',
  summary: 'List the workspaces this API key can access',
  description:
    'Workspaces of the tenant that the key\'s agent may use, oldest first. An agent with scope "all" sees every workspace of the tenant, including ones created after the agent.',
  tag: 'Workspaces',
  auth: 'apiKey',
  rateLimitFamily: 'other',
  workspace: 'none',
  successStatus: 200,
  successDescription:
    "A page of the workspaces the key's agent may use, oldest first, with `nextCursor` while more remain.",
  schemas: {
    params: noParams,
    query: z.object(pageQuery),
    response: pageOf(workspaceSchema),
  },
  async handler({ deps, principal }, { query }) {
    // A `selected` agent sees only its own list: the page fills with those alone.
    const page = await deps.tenancy.listWorkspaces(
      principal.tenant.tenantId,
      { limit: query.limit, ...(query.cursor && { cursor: query.cursor }) },
      (workspace) => scopeCovers(principal.agent, workspace.workspaceId),
    );
    return { data: page.items.map(toWorkspaceResource), nextCursor: page.nextCursor ?? null };
  },
});
