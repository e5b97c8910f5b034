import { defineOperation } from '../../http/operation.js';
import { MAX_WEBHOOKS_PER_WORKSPACE, makeRegisterWebhook } from '../../services/webhooks/register-webhook.js';
import { noQuery, workspacePathParams } from '../common-schemas.js';
import { createdWebhookResource, createWebhookBody } from './webhook-schemas.js';

export const createWebhook = defineOperation({
  id: 'createWebhook',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/webhooks',
  summary: 'Register a webhook (the answer holds its secret, once)',
  description: `The service then POSTs each subscribed event of this workspace to the URL, signed with the secret (X-Webhook-Signature), retried for about 24 hours. The secret (whsec_…) is in this response only: keep it. The URL must be HTTPS to a public host, port 443 or 1024–65535 (400 with details.url otherwise); events is a non-empty list of distinct event names (post.queued, post.scheduled, post.published, post.failed, approval.requested, approval.decided, account.disconnected). At most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks per workspace (409 conflict beyond).`,
  toolDescription:
    'The service then POSTs each subscribed event of this workspace to the URL, signed with the secret (X-Webhook-Signature), retried for about 24 hours. The secret (whsec_…) is in this answer only: keep it. A URL other than HTTPS to a public host, port 443 or 1024–65535, is INVALID_REQUEST naming body.url. At most 25 per workspace (conflict, 409, beyond).',
  tag: 'Webhooks',
  auth: 'apiKey',
  permission: 'webhooks:manage',
  rateLimitFamily: 'other',
  workspace: 'path',
  resources: ['secrets-encrypt'],
  errors: ['conflict'],
  successStatus: 201,
  successDescription:
    'The webhook, with its signing secret (whsec_…): shown this once, keep it to verify signatures.',
  schemas: {
    params: workspacePathParams,
    query: noQuery,
    body: createWebhookBody,
    response: createdWebhookResource,
  },
  async handler({ deps, principal, workspaceId }, { body }) {
    const { webhook, secret } = await makeRegisterWebhook(deps)(principal.tenant.tenantId, workspaceId, body);
    return {
      id: webhook.webhookId,
      url: webhook.url,
      events: webhook.events,
      description: webhook.description ?? null,
      secret,
      createdAt: webhook.createdAt,
    };
  },
});
