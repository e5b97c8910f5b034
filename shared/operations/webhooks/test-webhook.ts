import { defineOperation } from '../../http/operation.js';
import { makeTestWebhook } from '../../services/webhooks/test-webhook.js';
import { noQuery } from '../common-schemas.js';
import { deliveryResource, toDeliveryResource, webhookPathParams } from './webhook-schemas.js';

export const testWebhook = defineOperation({
  id: 'testWebhook',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/test',
  summary: 'Send a webhook.test event to this webhook',
  description:
    'A webhook.test event (data: {webhookId, message}), signed like every delivery, to this webhook only, whatever it subscribes to; it is not in the event feed. Answers at once with its delivery, pending; follow it in the delivery history.',
  tag: 'Webhooks',
  auth: 'apiKey',
  permission: 'webhooks:manage',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found'],
  successStatus: 202,
  successDescription: 'The delivery of the webhook.test event, pending: follow it in the delivery history.',
  effects: { reachesNetwork: true },
  schemas: { params: webhookPathParams, query: noQuery, response: deliveryResource },
  async handler({ deps, principal, workspaceId }, { params }) {
    const delivery = await makeTestWebhook(deps)(principal.tenant.tenantId, workspaceId, params.webhook_id);
    return toDeliveryResource(delivery);
  },
});
