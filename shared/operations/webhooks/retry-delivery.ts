import { defineOperation } from '../../http/operation.js';
import { makeRetryDelivery } from '../../services/webhooks/retry-delivery.js';
import { noQuery } from '../common-schemas.js';
import { deliveryPathParams, deliveryResource, toDeliveryResource } from './webhook-schemas.js';

export const retryDelivery = defineOperation({
  id: 'retryWebhookDelivery',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/retry',
  summary: 'Redeliver an event now',
  description:
    'A new attempt now, of the same event with the same id (deduplicate on it), whatever the delivery’s status: a failed or succeeded delivery is sent again, a pending one waiting for its next retry is brought forward. Answers at once with the delivery, pending; the attempt follows within seconds and appears in its attemptHistory.',
  toolDescription:
    'A new attempt now of the same event, same id (deduplicate on it), whatever the delivery’s status; a pending retry is brought forward. Answers at once with the delivery, pending; the attempt shows in its attemptHistory within seconds.',
  tag: 'Webhooks',
  auth: 'apiKey',
  permission: 'webhooks:manage',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found'],
  successStatus: 202,
  successDescription:
    'The delivery, pending: the new attempt follows within seconds and appears in its attemptHistory.',
  effects: { reachesNetwork: true },
  schemas: { params: deliveryPathParams, query: noQuery, response: deliveryResource },
  async handler({ deps, principal, workspaceId }, { params }) {
    const delivery = await makeRetryDelivery(deps)(
      principal.tenant.tenantId,
      workspaceId,
      params.webhook_id,
      params.delivery_id,
    );
    return toDeliveryResource(delivery);
  },
});
