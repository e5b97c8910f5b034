import { type Html, html } from '../html.js';
import { utcTime } from './time.js';
import { type CreatedWebhookItem, webhooksPath } from './webhooks-format.js';

/**
 * The create answer's body: the signing secret, once. It is never stored in plaintext nor shown
 * again, so this is the person's only chance to copy it.
 */
export function createdWebhookBody(workspaceId: string, webhook: CreatedWebhookItem): Html {
  return html`<section aria-labelledby="signing-secret"><h2 id="signing-secret">Signing secret</h2>
<p>Your receiver checks every delivery's <code>X-Webhook-Signature</code> with this secret.</p>
<p class="secret" id="new-secret">${webhook.secret}</p><button type="button" data-copy="new-secret" class="secondary">Copy</button>
<p><strong>Copy it now: it will not be shown again.</strong> To change it, delete the webhook and create another.</p></section>
<section aria-labelledby="created-facts"><h2 id="created-facts">The webhook</h2><dl class="facts"><dt>Id</dt><dd><code>${webhook.id}</code></dd><dt>URL</dt><dd>${webhook.url}</dd><dt>Events</dt><dd>${webhook.events.join(', ')}</dd><dt>Created</dt><dd>${utcTime(webhook.createdAt)}</dd></dl>
<p><a href="${webhooksPath(workspaceId, webhook.id)}">Go to the webhook's page</a> · <a href="${webhooksPath(workspaceId)}">Back to webhooks</a></p></section>`;
}
