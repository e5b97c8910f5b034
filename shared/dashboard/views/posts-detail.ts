import { DASHBOARD_BASE } from '../env.js';
import { empty, type Html, html, join } from '../html.js';
import { postExtras } from './posts-extras.js';
import { NETWORK_NAMES } from './posts-format.js';
import type { PostResource } from './posts-list.js';
import { utcTime } from './time.js';

const fact = (label: string, value: Html | string) => html`<dt>${label}</dt><dd>${value}</dd>`;

/** A link only to a web address; anything else is shown as text. */
function publishedLink(url: string | null): Html {
  if (!url) return html`not published`;
  return /^https?:\/\//i.test(url)
    ? html`<a href="${url}" rel="noopener noreferrer">${url}</a>`
    : html`${url}`;
}

function facts(workspaceId: string, post: PostResource, handle: string | undefined): Html {
  return html`<dl class="facts">${join([
    fact('Status', post.status),
    fact('Platform', NETWORK_NAMES[post.platform]),
    fact('Type', post.postType),
    fact(
      'Account',
      html`<a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/posts?accountId=${post.accountId}">${
        handle ?? html`<code>${post.accountId}</code>`
      }</a>`,
    ),
    // The caller's own id (a calendar entry's: docs/calendars.md), shown only where there is one.
    ...(post.externalId ? [fact('External id', html`<code>${post.externalId}</code>`)] : []),
    fact('Scheduled at', post.scheduledAt ? utcTime(post.scheduledAt) : 'not scheduled'),
    fact('Created', utcTime(post.createdAt)),
    fact('Updated', utcTime(post.updatedAt)),
    fact('Published', post.publishedAt ? utcTime(post.publishedAt) : 'not yet'),
    fact('Published URL', publishedLink(post.platformPostUrl)),
    fact('Delivery attempts', String(post.attempts)),
  ])}</dl>`;
}

function mediaList(media: PostResource['media']): Html {
  if (media.length === 0) return empty;
  return html`<ul>${join(
    media.map(
      (item) =>
        html`<li>${item.type ?? 'media'}: <code>${item.id ?? item.url ?? ''}</code>${item.alt ? html` (alt: ${item.alt})` : empty}</li>`,
    ),
  )}</ul>`;
}

function content(post: PostResource): Html {
  const body =
    typeof post.content === 'string'
      ? html`<pre>${post.content}</pre>${mediaList(post.media)}`
      : html`<ol>${join(
          post.content.map(
            (item) => html`<li><pre>${item.text ?? ''}</pre>${mediaList(item.media ?? [])}</li>`,
          ),
        )}</ol>`;
  return html`<section aria-labelledby="content-heading"><h2 id="content-heading">Content</h2>${body}</section>`;
}

/** The error as the API states it: our code and message; the network's raw answer is never shown. */
function error(post: PostResource): Html {
  if (!post.error) return empty;
  return html`<section aria-labelledby="error-heading"><h2 id="error-heading">Error</h2><dl class="facts">${join(
    [
      fact('Code', html`<code>${post.error.code}</code>`),
      fact('Message', post.error.message),
      fact('From', post.error.origin === 'platform' ? 'the network' : 'the service'),
      fact('Retryable', post.error.retryable ? 'yes' : 'no'),
    ],
  )}</dl></section>`;
}

function approval(workspaceId: string, post: PostResource): Html {
  if (!post.approval) return empty;
  const { status, requestedAt, decidedAt, decidedBy, reason } = post.approval;
  const waiting =
    post.status === 'pending_approval'
      ? html`<p>It waits for a decision: <a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/approvals">Approvals</a>.</p>`
      : empty;
  return html`<section aria-labelledby="approval-heading"><h2 id="approval-heading">Approval</h2>${waiting}<dl class="facts">${join(
    [
      fact('Approval', status),
      fact('Requested', utcTime(requestedAt)),
      ...(decidedAt ? [fact('Decided', utcTime(decidedAt))] : []),
      ...(decidedBy ? [fact('Decided by', decidedBy)] : []),
      ...(reason ? [fact('Reason', reason)] : []),
    ],
  )}</dl></section>`;
}

/** A post's page, above its status history; `handle`: its account's, when the account is still there. */
export function postDetail(workspaceId: string, post: PostResource, handle?: string): Html {
  return html`${facts(workspaceId, post, handle)}${content(post)}${postExtras(post)}${error(post)}${approval(workspaceId, post)}`;
}
