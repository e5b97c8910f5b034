import * as z from 'zod';
import { defineOperation, type Operation } from '../../http/operation.js';
import { makeDeleteWebhook } from '../../services/webhooks/delete-webhook.js';
import { noQuery } from '../common-schemas.js';
import { shortWebhookPathParams, webhookPathParams } from './webhook-schemas.js';

const description =
  'Gone at once: no event is delivered to it any more and its pending retries stop. Its delivery history can no longer be read (it expires within 30 days).';

export const deleteWebhook = defineOperation({
  id: 'deleteWebhook',
  method: 'DELETE',
  path: '/v1/workspaces/{workspace_id}/webhooks/{webhook_id}',
  summary: 'Delete a webhook',
  description,
  tag: 'Webhooks',
  auth: 'apiKey',
  permission: 'webhooks:manage',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found'],
  successStatus: 204,
  successDescription: 'Deleted: nothing more is delivered to this webhook and its pending retries stop.',
  schemas: { params: webhookPathParams, query: noQuery, response: z.undefined() },
  async handler({ deps, principal, workspaceId }, { params }) {
    await makeDeleteWebhook(deps)(principal.tenant.tenantId, workspaceId, params.webhook_id);
    return undefined;
  },
});

/** The interface's short form: the workspace is the key's only one, or ?workspaceId=. */
export const deleteWebhookShort: Operation = defineOperation({
  ...deleteWebhook,
  id: 'deleteWebhookShort',
  path: '/v1/webhooks/{webhook_id}',
  summary: 'Delete a webhook (short form)',
  description: `${description} With a key for several workspaces, name one with ?workspaceId= (else 403 workspace_required).`,
  workspace: 'implicit',
  schemas: { params: shortWebhookPathParams, query: noQuery, response: z.undefined() },
});
