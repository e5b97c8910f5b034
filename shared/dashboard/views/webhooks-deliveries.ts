import type { Context } from 'hono';
import type { DashboardEnv } from '../env.js';
import { postForm, submitButton } from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { utcTime } from './time.js';
import { type DeliveryItem, outcomeBadge, webhooksPath } from './webhooks-format.js';

type Attempt = DeliveryItem['attemptHistory'][number];

/** One attempt: when, what the receiver answered (or why none came), how long it took. */
function attemptItem(attempt: Attempt): Html {
  const outcome =
    attempt.responseStatus !== null && attempt.responseStatus !== undefined
      ? html`HTTP ${attempt.responseStatus}`
      : html`no response`;
  // The error is the service's own sentence (never the receiver's body).
  return html`<li>${utcTime(attempt.at)}: ${outcome}, ${Math.round(attempt.durationMs)} ms${
    attempt.error ? html`. ${attempt.error}` : empty
  }</li>`;
}

function attemptList(delivery: DeliveryItem): Html {
  if (delivery.attemptHistory.length === 0) return html`<p>No attempt yet.</p>`;
  return html`<p>${delivery.attemptHistory.length} ${delivery.attemptHistory.length === 1 ? 'attempt' : 'attempts'}</p><ol class="attempts">${join(
    delivery.attemptHistory.map(attemptItem),
  )}</ol>`;
}

function deliveryRow(
  c: Context<DashboardEnv>,
  workspaceId: string,
  delivery: DeliveryItem,
  canManage: boolean,
): Html {
  const redeliver = canManage
    ? postForm(
        c,
        `${webhooksPath(workspaceId, delivery.webhookId)}/deliveries/${delivery.id}/redeliver`,
        submitButton('Redeliver'),
        { inline: true, label: `Redeliver ${delivery.id}` },
      )
    : empty;
  return html`<tr id="${delivery.id}"><th scope="row">${delivery.eventType}<br><code>${delivery.eventId}</code></th><td>${outcomeBadge(
    delivery.status,
  )}</td><td>${attemptList(delivery)}</td><td>${utcTime(delivery.nextAttemptAt)}</td><td>${utcTime(delivery.createdAt)}</td>${
    canManage ? html`<td>${redeliver}</td>` : empty
  }</tr>`;
}

/** The Deliveries section: every delivery of this page with all its attempts, and the next page's link. */
export function deliveriesSection(
  c: Context<DashboardEnv>,
  options: {
    workspaceId: string;
    webhookId: string;
    deliveries: readonly DeliveryItem[];
    nextCursor: string | null;
    /** Whether this is a later page (then a link back to the first). */
    paged: boolean;
    canManage: boolean;
  },
): Html {
  const here = webhooksPath(options.workspaceId, options.webhookId);
  const table =
    options.deliveries.length === 0
      ? html`<p>${options.paged ? 'No more deliveries.' : 'No deliveries yet. Send a test event to see one.'}</p>`
      : html`<table><caption>Deliveries, newest first</caption><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Next attempt</th><th scope="col">Created</th>${
          options.canManage ? html`<th scope="col">Actions</th>` : empty
        }</tr></thead><tbody>${join(
          options.deliveries.map((delivery) =>
            deliveryRow(c, options.workspaceId, delivery, options.canManage),
          ),
        )}</tbody></table>`;
  const links = [
    options.paged ? html`<a href="${here}">First page</a>` : empty,
    options.nextCursor
      ? html`<a href="${here}?cursor=${encodeURIComponent(options.nextCursor)}" rel="next">Next page</a>`
      : empty,
  ];
  return html`<section aria-labelledby="deliveries"><h2 id="deliveries">Deliveries</h2>${table}<p class="pager">${join(
    links,
  )}</p></section>`;
}
