import { DASHBOARD_BASE } from '../env.js';
import { type Html, html, join } from '../html.js';
import type { AccountResource } from './accounts-table.js';
import { NETWORK_NAMES } from './posts-format.js';
import { utcTime } from './time.js';

const fact = (label: string, value: Html | string) => html`<dt>${label}</dt><dd>${value}</dd>`;

const listOrNone = (values: readonly string[], none: string): Html =>
  values.length === 0
    ? html`${none}`
    : join(values.map((value, index) => html`${index === 0 ? '' : ', '}<code>${value}</code>`));

/** An account's facts: who it is, its health, the permissions granted and those its metrics lack. */
export function accountFacts(workspaceId: string, account: AccountResource): Html {
  return html`<dl class="facts">${join([
    fact('Platform', NETWORK_NAMES[account.platform]),
    fact('Handle', account.handle),
    fact('Name', account.displayName),
    fact('Id', html`<code>${account.id}</code>`),
    fact('Status', account.sandbox ? `${account.status} (sandbox)` : account.status),
    fact('Needs reconnect', account.needsReconnect ? 'yes' : 'no'),
    fact('Token expires', account.tokenExpiresAt ? utcTime(account.tokenExpiresAt) : 'not given'),
    fact('Permissions', listOrNone(account.scopes, 'none')),
    ...(account.missingMetricsScopes
      ? [fact('Missing for metrics', listOrNone(account.missingMetricsScopes, 'none'))]
      : []),
    fact('Connected', utcTime(account.connectedAt)),
    fact(
      'Posts',
      html`<a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/posts?accountId=${account.id}">Its posts</a>`,
    ),
  ])}</dl>`;
}
