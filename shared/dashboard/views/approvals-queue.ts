import type { Context } from 'hono';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { postForm } from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { excerptOf, NETWORK_NAMES } from './posts-format.js';
import type { PostResource } from './posts-list.js';
import { utcTime } from './time.js';

const DONE: Readonly<Record<string, string>> = {
  approved: 'Post approved.',
  rejected: 'Post rejected.',
};

/** The notice after a decision, from the page's `done`; nothing for anything else. */
export function approvalNotice(done: string | undefined): string | undefined {
  return done !== undefined && Object.hasOwn(DONE, done) ? DONE[done] : undefined;
}

/** Approve, and reject with a reason: each row's own forms, its reason field labelled for its post. */
function decisionForms(c: Context<DashboardEnv>, workspaceId: string, post: PostResource): Html {
  const base = `${DASHBOARD_BASE}/workspaces/${workspaceId}/posts/${post.id}`;
  const reasonId = `reason-${post.id}`;
  return html`${postForm(
    c,
    `${base}/approve`,
    html`<button type="submit" aria-label="Approve ${post.id}">Approve</button>`,
    { label: `Approve ${post.id}` },
  )}${postForm(
    c,
    `${base}/reject`,
    html`<div class="field"><label for="${reasonId}">Reason</label><input id="${reasonId}" name="reason" type="text" required maxlength="1000"></div><button type="submit" class="danger" aria-label="Reject ${post.id}">Reject</button>`,
    { label: `Reject ${post.id}` },
  )}`;
}

/** The posts waiting for a decision, newest first as the listing gives them. */
export function approvalsQueue(
  c: Context<DashboardEnv>,
  workspaceId: string,
  posts: readonly PostResource[],
  canDecide: boolean,
): Html {
  if (posts.length === 0) return html`<p>No posts are waiting for approval.</p>`;
  const note = canDecide ? empty : html`<p>Your role lets you see these posts but not decide on them.</p>`;
  return html`${note}<table><caption>Posts waiting for approval</caption><thead><tr><th scope="col">Post</th><th scope="col">Platform</th><th scope="col">Account</th><th scope="col">Requested</th><th scope="col">Text</th>${
    canDecide ? html`<th scope="col">Decision</th>` : empty
  }</tr></thead><tbody>${join(
    posts.map(
      (post) =>
        html`<tr><th scope="row"><a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/posts/${post.id}">${post.id}</a></th><td>${NETWORK_NAMES[post.platform]}</td><td><code>${post.accountId}</code></td><td>${utcTime(post.approval?.requestedAt ?? post.createdAt)}</td><td>${excerptOf(post.content)}</td>${
          canDecide ? html`<td>${decisionForms(c, workspaceId, post)}</td>` : empty
        }</tr>`,
    ),
  )}</tbody></table>`;
}
