import * as z from 'zod';
import { defineOperation, type Operation } from '../../http/operation.js';
import { makeListDeliveries } from '../../services/webhooks/list-deliveries.js';
import { pageOf, pageQuery } from '../common-schemas.js';
import {
  DELIVERY_STATUSES,
  deliveryResource,
  shortWebhookPathParams,
  toDeliveryResource,
  webhookPathParams,
} from './webhook-schemas.js';

const listDeliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().describe('Only deliveries in this status.'),
  ...pageQuery,
});

const description =
  'Newest first (by the time of their event), kept 30 days after their latest attempt. Each record has the latest attempt’s outcome (responseStatus, responseTimeMs, error), attempts (how many), nextAttemptAt while pending, and attemptHistory: every attempt with its time, response status, duration and error. status=pending|succeeded|failed filters. A page may hold fewer than limit deliveries; follow nextCursor until it is null.';

export const listDeliveries = defineOperation({
  id: 'listWebhookDeliveries',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/deliveries',
  summary: "A webhook's delivery history",
  description,
  toolDescription:
    "Newest first (by their event's time), kept 30 days after their latest attempt, each with its latest outcome, attempts, nextAttemptAt while pending and attemptHistory. status filters. A page may hold fewer than limit; pass nextCursor as cursor until it is null.",
  tag: 'Webhooks',
  auth: 'apiKey',
  permission: 'webhooks:manage',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found'],
  successStatus: 200,
  successDescription: "A page of the webhook's deliveries, newest first, each with its status and attempts.",
  schemas: { params: webhookPathParams, query: listDeliveriesQuery, response: pageOf(deliveryResource) },
  async handler({ deps, principal, workspaceId }, { params, query }) {
    const page = await makeListDeliveries(deps)(principal.tenant.tenantId, workspaceId, params.webhook_id, {
      limit: query.limit,
      ...(query.cursor && { cursor: query.cursor }),
      ...(query.status && { status: query.status }),
    });
    return { data: page.items.map(toDeliveryResource), nextCursor: page.nextCursor ?? null };
  },
});

/** The interface's short form: the workspace is the key's only one, or ?workspaceId=. */
export const listDeliveriesShort: Operation = defineOperation({
  ...listDeliveries,
  id: 'listWebhookDeliveriesShort',
  path: '/v1/webhooks/{webhook_id}/deliveries',
  summary: "A webhook's delivery history (short form)",
  description: `${description} With a key for several workspaces, name one with ?workspaceId= (else 403 workspace_required).`,
  workspace: 'implicit',
  schemas: { params: shortWebhookPathParams, query: listDeliveriesQuery, response: pageOf(deliveryResource) },
});
