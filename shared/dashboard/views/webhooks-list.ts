import type { Context } from 'hono';
import { EVENT_TYPES } from '../../domain/events.js';
import type { DashboardEnv } from '../env.js';
import {
  checkboxGroup,
  errorSummary,
  type FormProblem,
  postForm,
  submitButton,
  textField,
} from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { utcTime } from './time.js';
import { outcomeBadge, type WebhookItem, webhooksPath } from './webhooks-format.js';

/** What the create form holds: what the person typed, kept when it is refused. */
export interface WebhookFormValues {
  url: string;
  events: readonly string[];
  description: string;
}

/**
 * A new webhook's form ticks the events someone has to act on (a post out or failed, an account
 * that needs reconnecting); the person adds or removes others. A form with none ticked is refused.
 */
export const NEW_WEBHOOK_FORM: WebhookFormValues = {
  url: '',
  events: ['post.published', 'post.failed', 'account.disconnected'],
  description: '',
};

/**
 * What receivers this host accepts, said as the receiver rule applies it
 * (shared/domain/webhooks/receiver-url.ts): loopback http only where the host allows it (the local host).
 */
export function receiverHint(allowLoopbackHttp: boolean): string {
  return allowLoopbackHttp
    ? 'Where the events are POSTed: HTTPS to a public host (port 443 or 1024–65535), or, on this local host, http to a loopback address such as http://127.0.0.1:8080/hooks.'
    : 'Where the events are POSTed: HTTPS to a public host, port 443 or 1024–65535.';
}

function webhookRow(workspaceId: string, webhook: WebhookItem): Html {
  return html`<tr><th scope="row"><a href="${webhooksPath(workspaceId, webhook.id)}">${webhook.url}</a></th><td>${webhook.events.join(', ')}</td><td>${webhook.description ?? ''}</td><td>${utcTime(webhook.createdAt)}</td><td>${outcomeBadge(webhook.lastDeliveryStatus)} ${utcTime(webhook.lastDeliveryAt)}</td><td>${webhook.consecutiveFailures}</td></tr>`;
}

function webhookTable(workspaceId: string, webhooks: readonly WebhookItem[]): Html {
  if (webhooks.length === 0) return html`<p>This workspace has no webhooks yet.</p>`;
  return html`<table><caption>Webhooks of this workspace, oldest first</caption><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Description</th><th scope="col">Created</th><th scope="col">Latest delivery</th><th scope="col">Consecutive failures</th></tr></thead><tbody>${join(
    webhooks.map((webhook) => webhookRow(workspaceId, webhook)),
  )}</tbody></table>`;
}

function createForm(
  c: Context<DashboardEnv>,
  workspaceId: string,
  values: WebhookFormValues,
  problem: FormProblem | undefined,
): Html {
  const errors = problem?.fields;
  return html`<section aria-labelledby="create-webhook"><h2 id="create-webhook">Add a webhook</h2>${errorSummary(problem)}${postForm(
    c,
    webhooksPath(workspaceId),
    html`${textField({
      name: 'url',
      label: 'URL',
      type: 'url',
      required: true,
      value: values.url,
      hint: receiverHint(c.var.deps.services.webhookReceivers.allowLoopbackHttp),
      errors,
    })}${checkboxGroup({
      name: 'events',
      legend: 'Events',
      choices: EVENT_TYPES.map((event) => ({ value: event, label: event })),
      checked: values.events,
      errors,
    })}${textField({
      name: 'description',
      label: 'Description (optional)',
      value: values.description,
      hint: 'A label for people, e.g. what receives these events.',
      errors,
    })}${submitButton('Create webhook')}`,
  )}</section>`;
}

/**
 * The body of the Webhooks page: the workspace's webhooks, and the create form for those who
 * administer it. No secret is on this page: only the create answer shows it.
 */
export function webhookListBody(
  c: Context<DashboardEnv>,
  options: {
    workspaceId: string;
    webhooks: readonly WebhookItem[];
    canManage: boolean;
    form?: WebhookFormValues;
    problem?: FormProblem;
  },
): Html {
  return html`<section aria-labelledby="webhook-list"><h2 id="webhook-list">Registered webhooks</h2>${webhookTable(
    options.workspaceId,
    options.webhooks,
  )}</section>${
    options.canManage
      ? createForm(c, options.workspaceId, options.form ?? NEW_WEBHOOK_FORM, options.problem)
      : empty
  }`;
}
