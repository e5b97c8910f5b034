import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, InvalidRequestError, NotFoundError } from '../../domain/errors.js';
import { adminsWorkspace } from '../../domain/user-access.js';
import { toDeliveryResource, toWebhookResource } from '../../operations/webhooks/webhook-schemas.js';
import { makeGetWebhook } from '../../services/webhooks/get-webhook.js';
import { makeListDeliveries } from '../../services/webhooks/list-deliveries.js';
import { callOperation } from '../call-operation.js';
import type { DashboardEnv } from '../env.js';
import { type FormProblem, listOf, problemFrom, readForm, textOf } from '../forms.js';
import { empty } from '../html.js';
import { notFoundPage, page } from '../pages.js';
import { createdWebhookBody } from '../views/webhooks-created.js';
import { deliveriesSection } from '../views/webhooks-deliveries.js';
import { webhookDetailBody } from '../views/webhooks-detail.js';
import {
  type CreatedWebhookItem,
  type DeliveryItem,
  type WebhookItem,
  webhooksPath,
} from '../views/webhooks-format.js';
import { type WebhookFormValues, webhookListBody } from '../views/webhooks-list.js';

type Ctx = Context<DashboardEnv>;

/** Fixed messages for `?done=`: the query never puts its own text on the page. */
const LIST_NOTICES: Record<string, string> = { deleted: 'Webhook deleted.' };
const DETAIL_NOTICES: Record<string, string> = {
  tested: 'Test event queued. Its delivery appears below within seconds.',
  redelivered: 'Redelivery queued.',
};

const DELIVERIES_PER_PAGE = 25;

const ids = (c: Ctx) => ({
  tenantId: c.var.signedIn.tenant.tenantId,
  workspaceId: c.var.workspace.workspaceId,
});
const canManage = (c: Ctx) => adminsWorkspace(c.var.signedIn.user, c.var.workspace.workspaceId);
const statusOf = (error: AppError) => error.status as ContentfulStatusCode;

/*
 * Reads run the same use cases as the API's listWebhooks, getWebhook and listWebhookDeliveries,
 * scoped to the guard's tenant and workspace, and answer the same resources (never a secret). They
 * are not run through the operations: those require `webhooks:manage`, which a viewer's principal
 * lacks, and a viewer reads this page. Every change goes through the operations (callOperation).
 */

async function readWebhooks(c: Ctx): Promise<WebhookItem[]> {
  const { tenantId, workspaceId } = ids(c);
  const webhooks: WebhookItem[] = [];
  let cursor: string | undefined;
  do {
    const batch = await c.var.deps.services.webhooks.listWebhooks(tenantId, workspaceId, {
      limit: 100,
      ...(cursor && { cursor }),
    });
    webhooks.push(...batch.items.map(toWebhookResource));
    cursor = batch.nextCursor;
  } while (cursor);
  return webhooks;
}

async function readWebhook(c: Ctx, webhookId: string): Promise<WebhookItem | undefined> {
  const { tenantId, workspaceId } = ids(c);
  try {
    return toWebhookResource(await makeGetWebhook(c.var.deps.services)(tenantId, workspaceId, webhookId));
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

async function readDeliveries(
  c: Ctx,
  webhookId: string,
  cursor: string | undefined,
): Promise<{ deliveries: DeliveryItem[]; nextCursor: string | null }> {
  const { tenantId, workspaceId } = ids(c);
  const found = await makeListDeliveries(c.var.deps.services)(tenantId, workspaceId, webhookId, {
    limit: DELIVERIES_PER_PAGE,
    ...(cursor && { cursor }),
  });
  return { deliveries: found.items.map(toDeliveryResource), nextCursor: found.nextCursor ?? null };
}

function showList(
  c: Ctx,
  webhooks: WebhookItem[],
  options: { form?: WebhookFormValues; problem?: FormProblem; status?: ContentfulStatusCode } = {},
) {
  const notice = LIST_NOTICES[c.req.query('done') ?? ''];
  return page(
    c,
    {
      title: 'Webhooks',
      body: webhookListBody(c, {
        workspaceId: c.var.workspace.workspaceId,
        webhooks,
        canManage: canManage(c),
        ...(options.form && { form: options.form }),
        ...(options.problem && { problem: options.problem }),
      }),
      ...(notice && !options.problem && { notice }),
    },
    options.status,
  );
}

/** The webhook's page; `alert` and `status` when an action on it was refused. */
async function showWebhook(
  c: Ctx,
  webhookId: string,
  options: { alert?: string; status?: ContentfulStatusCode } = {},
) {
  const webhook = await readWebhook(c, webhookId);
  if (!webhook) return notFoundPage(c);
  const cursor = c.req.method === 'GET' ? c.req.query('cursor') || undefined : undefined;
  let alert = options.alert;
  let status = options.status;
  let deliveries = empty;
  try {
    const found = await readDeliveries(c, webhookId, cursor);
    deliveries = deliveriesSection(c, {
      workspaceId: c.var.workspace.workspaceId,
      webhookId,
      ...found,
      paged: cursor !== undefined,
      canManage: canManage(c),
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // A cursor from another page or a damaged link: said in words, the facts still shown.
    alert = error.message;
    status = statusOf(error);
  }
  const notice = alert ? undefined : DETAIL_NOTICES[c.req.query('done') ?? ''];
  return page(
    c,
    {
      title: `Webhook ${webhook.id}`,
      body: webhookDetailBody(c, {
        workspaceId: c.var.workspace.workspaceId,
        webhook,
        canManage: canManage(c),
        deliveries,
      }),
      ...(notice && { notice }),
      ...(alert && { alert }),
    },
    status,
  );
}

/** After an action on one webhook: back to its page with a notice, or its page with the refusal. */
async function afterAction(
  c: Ctx,
  webhookId: string,
  outcome: { ok: true } | { ok: false; error: AppError },
  done: string,
) {
  if (outcome.ok)
    return c.redirect(`${webhooksPath(c.var.workspace.workspaceId, webhookId)}?done=${done}`, 303);
  // The actions have no body: a malformed id in the path is simply nothing found.
  if (outcome.error instanceof NotFoundError || outcome.error instanceof InvalidRequestError) {
    return notFoundPage(c);
  }
  return showWebhook(c, webhookId, { alert: outcome.error.message, status: statusOf(outcome.error) });
}

export function registerWebhookRoutes(app: Hono<DashboardEnv>): void {
  app.get('/workspaces/:workspaceId/webhooks', async (c) => showList(c, await readWebhooks(c)));

  app.post('/workspaces/:workspaceId/webhooks', async (c) => {
    const form = await readForm(c);
    const values: WebhookFormValues = {
      url: textOf(form, 'url'),
      events: listOf(form, 'events'),
      description: textOf(form, 'description'),
    };
    const workspaceId = c.var.workspace.workspaceId;
    // The schema's own words ("at least 1 element") do not say what to do: the form says it.
    if (values.events.length === 0) {
      const choose = 'Choose at least one event.';
      return showList(c, await readWebhooks(c), {
        form: values,
        problem: { message: choose, fields: { events: [choose] } },
        status: 422,
      });
    }
    const created = await callOperation<CreatedWebhookItem>(c, 'createWebhook', {
      params: { workspace_id: workspaceId },
      body: {
        url: values.url,
        events: values.events,
        ...(values.description && { description: values.description }),
      },
    });
    if (!created.ok) {
      const status = created.error instanceof InvalidRequestError ? 422 : statusOf(created.error);
      return showList(c, await readWebhooks(c), {
        form: values,
        problem: problemFrom(created.error),
        status,
      });
    }
    c.var.logger.info('dashboard: webhook created', { webhookId: created.body.id });
    return page(c, { title: 'Webhook created', body: createdWebhookBody(workspaceId, created.body) });
  });

  app.get('/workspaces/:workspaceId/webhooks/:webhookId', (c) => showWebhook(c, c.req.param('webhookId')));

  app.post('/workspaces/:workspaceId/webhooks/:webhookId/test', async (c) => {
    const webhookId = c.req.param('webhookId');
    const outcome = await callOperation(c, 'testWebhook', {
      params: { workspace_id: c.var.workspace.workspaceId, webhook_id: webhookId },
    });
    return afterAction(c, webhookId, outcome, 'tested');
  });

  app.post('/workspaces/:workspaceId/webhooks/:webhookId/delete', async (c) => {
    const webhookId = c.req.param('webhookId');
    const workspaceId = c.var.workspace.workspaceId;
    const outcome = await callOperation(c, 'deleteWebhook', {
      params: { workspace_id: workspaceId, webhook_id: webhookId },
    });
    if (outcome.ok) return c.redirect(`${webhooksPath(workspaceId)}?done=deleted`, 303);
    return afterAction(c, webhookId, outcome, 'deleted');
  });

  app.post('/workspaces/:workspaceId/webhooks/:webhookId/deliveries/:deliveryId/redeliver', async (c) => {
    const webhookId = c.req.param('webhookId');
    const outcome = await callOperation(c, 'retryWebhookDelivery', {
      params: {
        workspace_id: c.var.workspace.workspaceId,
        webhook_id: webhookId,
        delivery_id: c.req.param('deliveryId'),
      },
    });
    return afterAction(c, webhookId, outcome, 'redelivered');
  });
}
