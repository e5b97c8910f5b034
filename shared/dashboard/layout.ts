import type { Context } from 'hono';
import { isTenantAdmin } from '../domain/user-access.js';
import { csrfInput } from './csrf-field.js';
import { DASHBOARD_BASE, type DashboardEnv } from './env.js';
import { empty, type Html, html, join } from './html.js';

export interface PageContent {
  /** The page's `<title>` and its one `<h1>`. */
  title: string;
  body: Html;
  /** A confirmation shown above the content (role=status), e.g. after a redirect. */
  notice?: string;
  /** A problem shown above the content (role=alert). */
  alert?: string;
}

const link = (href: string, label: string, current: boolean) =>
  html`<li><a href="${href}"${current ? html` aria-current="page"` : empty}>${label}</a></li>`;

function mainNav(c: Context<DashboardEnv>): Html {
  const signedIn = c.var.signedIn;
  if (!signedIn) return empty;
  const path = new URL(c.req.url).pathname;
  const items: Array<[string, string]> = [[`${DASHBOARD_BASE}/workspaces`, 'Workspaces']];
  if (isTenantAdmin(signedIn.user)) {
    items.push([`${DASHBOARD_BASE}/agents`, 'Tenant agents'], [`${DASHBOARD_BASE}/users`, 'Users']);
  }
  items.push([`${DASHBOARD_BASE}/me`, 'Your account']);
  return html`<nav aria-label="Main"><ul>${join(items.map(([href, label]) => link(href, label, path === href)))}</ul>
<form method="post" action="${DASHBOARD_BASE}/sign-out" class="sign-out">${csrfInput(c.var.csrfToken)}<span>${signedIn.user.email}</span> <button type="submit">Sign out</button></form></nav>`;
}

/** The pages of one workspace, under the main navigation. */
function workspaceNav(c: Context<DashboardEnv>): Html {
  const workspace = c.var.workspace;
  if (!workspace) return empty;
  const base = `${DASHBOARD_BASE}/workspaces/${workspace.workspaceId}`;
  const path = new URL(c.req.url).pathname;
  const items: Array<[string, string]> = [
    [base, 'Overview'],
    [`${base}/accounts`, 'Accounts'],
    [`${base}/posts`, 'Posts'],
    [`${base}/posts/new`, 'New post'],
    [`${base}/calendar`, 'Calendar'],
    [`${base}/approvals`, 'Approvals'],
    [`${base}/agents`, 'Agents and keys'],
    [`${base}/policies`, 'Policies'],
    [`${base}/webhooks`, 'Webhooks'],
  ];
  return html`<nav aria-label="Workspace ${workspace.name}" class="workspace-nav"><p>Workspace <strong>${workspace.name}</strong></p><ul>${join(
    items.map(([href, label]) => link(href, label, path === href)),
  )}</ul></nav>`;
}

/** The whole document around a page's content. Only our own stylesheet and script are loaded. */
export function layout(c: Context<DashboardEnv>, content: PageContent): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${content.title} · Social publishing</title>
<link rel="icon" href="${DASHBOARD_BASE}/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${DASHBOARD_BASE}/assets/dashboard.css">
<script src="${DASHBOARD_BASE}/assets/dashboard.js" defer></script>
</head>
<body>
<a class="skip-link" href="#content">Skip to content</a>
<header><p class="brand"><a href="${DASHBOARD_BASE}/workspaces">Social publishing</a></p>${mainNav(c)}</header>
${workspaceNav(c)}
<main id="content" tabindex="-1">
<h1>${content.title}</h1>
${content.notice ? html`<p class="notice" role="status">${content.notice}</p>` : empty}
${content.alert ? html`<p class="alert" role="alert">${content.alert}</p>` : empty}
${content.body}
</main>
</body>
</html>`;
}
