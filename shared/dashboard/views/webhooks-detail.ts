import type { Context } from 'hono';
import type { DashboardEnv } from '../env.js';
import { postForm, submitButton } from '../forms.js';
import { empty, type Html, html } from '../html.js';
import { utcTime } from './time.js';
import { outcomeBadge, type WebhookItem, webhooksPath } from './webhooks-format.js';

function facts(webhook: WebhookItem): Html {
  return html`<dl class="facts"><dt>URL</dt><dd>${webhook.url}</dd><dt>Events</dt><dd>${webhook.events.join(
    ', ',
  )}</dd><dt>Description</dt><dd>${webhook.description ?? 'none'}</dd><dt>Created</dt><dd>${utcTime(
    webhook.createdAt,
  )}</dd><dt>Latest delivery</dt><dd>${outcomeBadge(webhook.lastDeliveryStatus)} ${utcTime(
    webhook.lastDeliveryAt,
  )}</dd><dt>Consecutive failures</dt><dd>${webhook.consecutiveFailures}</dd></dl>`;
}

function actions(c: Context<DashboardEnv>, workspaceId: string, webhook: WebhookItem): Html {
  const here = webhooksPath(workspaceId, webhook.id);
  return html`<section aria-labelledby="webhook-actions"><h2 id="webhook-actions">Actions</h2>${postForm(
    c,
    `${here}/test`,
    html`<p>Sends a <code>webhook.test</code> event, signed like every delivery, to this webhook only.</p>${submitButton(
      'Send test event',
    )}`,
  )}${postForm(
    c,
    `${here}/delete`,
    html`<p>Deleting stops every delivery and retry at once; its delivery history can no longer be read.</p>${submitButton(
      'Delete webhook',
      { danger: true },
    )}`,
    { confirm: 'Delete this webhook? Its deliveries and retries stop at once.' },
  )}</section>`;
}

/** The webhook page's facts and, for those who administer the workspace, its actions. */
export function webhookDetailBody(
  c: Context<DashboardEnv>,
  options: { workspaceId: string; webhook: WebhookItem; canManage: boolean; deliveries: Html },
): Html {
  return html`<p><a href="${webhooksPath(options.workspaceId)}">Back to webhooks</a></p><section aria-labelledby="webhook-facts"><h2 id="webhook-facts">Facts</h2>${facts(
    options.webhook,
  )}</section>${options.canManage ? actions(c, options.workspaceId, options.webhook) : empty}${options.deliveries}`;
}
