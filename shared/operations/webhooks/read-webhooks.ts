import * as z from 'zod';
import { defineOperation } from '../../http/operation.js';
import { makeGetWebhook } from '../../services/webhooks/get-webhook.js';
import { noQuery, pageOf, pageQuery, workspacePathParams } from '../common-schemas.js';
import { toWebhookResource, webhookPathParams, webhookResource } from './webhook-schemas.js';

export const listWebhooks = defineOperation({
  id: 'listWebhooks',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/webhooks',
  summary: "List a workspace's webhooks, oldest first",
  description:
    'Each with its latest delivery outcome and consecutiveFailures; never the secret, which only the create response shows.',
  tag: 'Webhooks',
  auth: 'apiKey',
  permission: 'webhooks:manage',
  rateLimitFamily: 'other',
  workspace: 'path',
  successStatus: 200,
  successDescription:
    "A page of the workspace's webhooks, oldest first, each with its latest delivery outcome (never the secret); `nextCursor` while more remain.",
  schemas: { params: workspacePathParams, query: z.object(pageQuery), response: pageOf(webhookResource) },
  async handler({ deps, principal, workspaceId }, { query }) {
    const page = await deps.webhooks.listWebhooks(principal.tenant.tenantId, workspaceId, {
      limit: query.limit,
      ...(query.cursor && { cursor: query.cursor }),
    });
    return { data: page.items.map(toWebhookResource), nextCursor: page.nextCursor ?? null };
  },
});

export const getWebhook = defineOperation({
  id: 'getWebhook',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/webhooks/{webhook_id}',
  summary: 'Read one webhook',
  description:
    'Its URL, events, latest delivery outcome (lastDeliveryAt, lastDeliveryStatus) and consecutiveFailures; never the secret.',
  tag: 'Webhooks',
  auth: 'apiKey',
  permission: 'webhooks:manage',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found'],
  successStatus: 200,
  successDescription:
    'The webhook: its URL, events, latest delivery outcome and consecutiveFailures (never the secret).',
  schemas: { params: webhookPathParams, query: noQuery, response: webhookResource },
  async handler({ deps, principal, workspaceId }, { params }) {
    return toWebhookResource(
      await makeGetWebhook(deps)(principal.tenant.tenantId, workspaceId, params.webhook_id),
    );
  },
});
