import type { Context } from 'hono';
import type { z } from 'zod';
import { PLATFORMS } from '../../domain/platforms.js';
import { appChoiceOf } from '../../networks/app-kinds.js';
import type { accountDetailSchema, accountSchema } from '../../operations/accounts/account-schema.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { postForm, selectField, submitButton } from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { NETWORK_NAMES } from './posts-format.js';
import { utcTime } from './time.js';

export type AccountResource = z.output<typeof accountSchema>;

/** A connect choice's value: the platform, and a kind of app on a network with more than one (`<platform>:<kind>`). */
const connectValue = (platform: string, kind: string | undefined) =>
  kind === undefined ? platform : `${platform}:${kind}`;

/**
 * The connect form's network choices: each platform, and the kinds of app its definition offers
 * as choices of their own (LinkedIn's Community Management app, the only way an account can post
 * as a Page).
 */
const CONNECT_CHOICES = PLATFORMS.flatMap((platform) => [
  { value: platform, label: NETWORK_NAMES[platform] },
  ...Object.entries(appChoiceOf(platform)?.dashboardChoices ?? {}).map(([kind, label]) => ({
    value: connectValue(platform, kind),
    label,
  })),
]);

/** What a Reconnect button sends: the account's platform, and its kind of app where it has one. */
function connectValueOf(account: AccountResource): string {
  const choice = appChoiceOf(account.platform);
  return connectValue(account.platform, choice && account[choice.field]);
}

/**
 * The connect body a choice's value stands for: its platform, and its kind of app under the
 * network's field. A kind on a network without a choice is none the form offers: it stays in the
 * platform, which the API then refuses (400).
 */
export function connectBodyOf(value: string): Readonly<Record<string, string>> {
  const [platform = '', kind] = value.split(':');
  if (kind === undefined) return { platform };
  const choice = appChoiceOf(platform);
  return choice === undefined ? { platform: value } : { platform, [choice.field]: kind };
}
export type AccountUsage = z.output<typeof accountDetailSchema>['usage'];

/** One row: the account and, when its single read answered, today's use of its quota. */
export interface AccountRow {
  account: AccountResource;
  usage?: AccountUsage;
}

const UNIT_NAMES: Readonly<Record<AccountUsage['unit'], string>> = {
  posts: 'posts',
  quota_units: 'quota units',
};

function quotaCell(usage: AccountUsage | undefined): Html {
  if (!usage) return html`unknown`;
  const project = usage.project
    ? html`<br><span class="hint">Project: ${usage.project.used} of ${usage.project.limit}</span>`
    : empty;
  return html`${usage.used} of ${usage.limit} ${UNIT_NAMES[usage.unit]}${project}`;
}

function statusBadge(account: AccountResource): Html {
  const sandbox = account.sandbox ? html` <span class="badge">sandbox</span>` : empty;
  return account.status === 'connected'
    ? html`<span class="badge good">connected</span>${sandbox}`
    : html`<span class="badge bad">disconnected</span>${sandbox}`;
}

function actions(c: Context<DashboardEnv>, base: string, account: AccountResource): Html {
  const reconnect = account.sandbox
    ? empty
    : postForm(
        c,
        `${base}/connect`,
        html`<input type="hidden" name="platform" value="${connectValueOf(account)}"><button type="submit" class="secondary" aria-label="Reconnect ${account.handle}">Reconnect</button>`,
        { inline: true },
      );
  const disconnect =
    account.status === 'connected'
      ? postForm(
          c,
          `${base}/${account.id}/disconnect`,
          html`<button type="submit" class="danger" aria-label="Disconnect ${account.handle}">Disconnect</button>`,
          {
            inline: true,
            confirm: `Disconnect ${account.handle}? Posts to it are refused until it is connected again.`,
          },
        )
      : empty;
  return html`${reconnect} ${disconnect}`;
}

/** The workspace's accounts with their health; the actions only for those who may change them. */
export function accountsTable(
  c: Context<DashboardEnv>,
  workspaceId: string,
  rows: readonly AccountRow[],
  canChange: boolean,
): Html {
  if (rows.length === 0) return html`<p>No accounts are connected to this workspace yet.</p>`;
  const base = `${DASHBOARD_BASE}/workspaces/${workspaceId}/accounts`;
  return html`<table><caption>Connected accounts</caption><thead><tr><th scope="col">Platform</th><th scope="col">Handle</th><th scope="col">Status</th><th scope="col">Token expires</th><th scope="col">Needs reconnect</th><th scope="col">Today's quota use</th>${
    canChange ? html`<th scope="col">Actions</th>` : empty
  }</tr></thead><tbody>${join(
    rows.map(
      ({ account, usage }) =>
        html`<tr><td>${NETWORK_NAMES[account.platform]}</td><th scope="row"><a href="${base}/${account.id}">${account.handle}</a><br><span class="hint">${account.displayName} · <code>${account.id}</code></span></th><td>${statusBadge(account)}</td><td>${
          account.tokenExpiresAt ? utcTime(account.tokenExpiresAt) : html`not given`
        }</td><td>${account.needsReconnect ? html`<span class="badge bad">yes</span>` : html`no`}</td><td>${quotaCell(usage)}</td>${
          canChange ? html`<td>${actions(c, base, account)}</td>` : empty
        }</tr>`,
    ),
  )}</tbody></table>`;
}

/** Connecting another account: the network to go to. */
/**
 * On the local host (the only host that accepts loopback receivers), what connecting needs there:
 * the networks' fakes, or the sandbox accounts the admin CLI makes. A deployment never shows it.
 */
export const LOCAL_CONNECT_HELP =
  "On the local host, connecting goes through the networks only when their apps are configured: start it with FAKE_NETWORKS=1 npm start to connect through the fake networks' consent pages. Without them, use sandbox accounts, which publish to the sandbox network: the demo tenant has one per network, and npm run admin -- create-sandbox-account --tenant ten_… --workspace wks_… --platform x makes one in any workspace.";

export function isLocalHost(c: Context<DashboardEnv>): boolean {
  return c.var.deps.services.webhookReceivers.allowLoopbackHttp;
}

export function connectForm(c: Context<DashboardEnv>, workspaceId: string): Html {
  const local = isLocalHost(c) ? html`<p class="hint">${LOCAL_CONNECT_HELP}</p>` : empty;
  return html`<section aria-labelledby="connect-heading"><h2 id="connect-heading">Connect an account</h2><p>You will be sent to the network to allow access, then back here.</p>${local}${postForm(
    c,
    `${DASHBOARD_BASE}/workspaces/${workspaceId}/accounts/connect`,
    html`${selectField({
      name: 'platform',
      label: 'Network',
      choices: CONNECT_CHOICES,
    })}${submitButton('Connect account')}`,
  )}</section>`;
}
