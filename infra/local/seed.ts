import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Platform } from '../../shared/domain/platforms.js';
import type { Admin } from '../../shared/services/admin.js';
import type { UserAdmin } from '../../shared/services/users/user-admin.js';

/** The demo tenant's owner, who signs in to the dashboard. */
export const DEMO_OWNER_EMAIL = 'owner@example.com';

/** What is remembered of the demo tenant: ids only, never the key. */
export interface DemoRecord {
  tenantId: string;
  workspaceId: string;
  agentId: string;
  accounts: Record<Platform, string>;
  /** The dashboard owner's email (absent in data folders made before the dashboard). */
  ownerEmail?: string;
  createdAt: string;
}

const FILE_NAME = 'demo.json';

export type SeedOutcome =
  /** `ownerLink`: the dashboard path that sets the owner's password, once (24 hours). */
  | { created: true; demo: DemoRecord; apiKey: string; ownerLinkPath: string }
  | { created: false; demo: DemoRecord };

/**
 * On a data folder's first start, creates the demo tenant and its dashboard owner, and returns
 * the key and the owner's one-time link, once.
 */
export async function seedDemoTenant(
  dataDir: string,
  admin: Admin,
  userAdmin: UserAdmin,
): Promise<SeedOutcome> {
  const path = join(dataDir, FILE_NAME);
  if (existsSync(path)) return { created: false, demo: JSON.parse(readFileSync(path, 'utf8')) as DemoRecord };
  const result = await admin.bootstrap({ name: 'Demo' });
  const link = await userAdmin.createOwner({ tenantId: result.tenantId, email: DEMO_OWNER_EMAIL });
  const demo: DemoRecord = {
    tenantId: result.tenantId,
    workspaceId: result.workspaceId,
    agentId: result.agentId,
    accounts: result.accounts,
    ownerEmail: DEMO_OWNER_EMAIL,
    createdAt: new Date().toISOString(),
  };
  writeFileSync(path, `${JSON.stringify(demo, null, 2)}\n`);
  return {
    created: true,
    demo,
    apiKey: result.apiKey,
    ownerLinkPath: `/dashboard/welcome/${link.token}`,
  };
}

function dashboardLines(baseUrl: string, outcome: SeedOutcome): string[] {
  const { demo } = outcome;
  if (outcome.created) {
    return [
      `Dashboard: ${baseUrl}/dashboard (owner ${demo.ownerEmail})`,
      `  Set the owner's password (once, within 24 hours): ${baseUrl}${outcome.ownerLinkPath}`,
    ];
  }
  if (!demo.ownerEmail) return [`Dashboard: ${baseUrl}/dashboard`];
  return [
    `Dashboard: ${baseUrl}/dashboard (owner ${demo.ownerEmail})`,
    `  A new set-password link: npm run admin -- user-link --email ${demo.ownerEmail}`,
  ];
}

/** The start-up banner; `extra` lines (the fake networks') come before the last one. */
export function describeDemo(baseUrl: string, outcome: SeedOutcome, extra: readonly string[] = []): string {
  const { demo } = outcome;
  const lines = [
    '',
    'Social publishing API: local host is running.',
    '',
    `Base URL: ${baseUrl}`,
    outcome.created
      ? `API key: ${outcome.apiKey}`
      : `API key: shown on this data folder's first start only. Make another: npm run admin -- create-key --tenant ${demo.tenantId} --agent ${demo.agentId}`,
    `Tenant: ${demo.tenantId}`,
    `Workspace: ${demo.workspaceId}`,
    `Agent: ${demo.agentId}`,
    'Sandbox accounts:',
    ...Object.entries(demo.accounts).map(([platform, accountId]) => `  ${platform.padEnd(10)} ${accountId}`),
    '',
    outcome.created ? 'Keep the API key now: it is stored only as a hash and cannot be shown again.' : '',
    `Try: curl -H "Authorization: Bearer <API key>" ${baseUrl}/v1/workspaces`,
    `OpenAPI: ${baseUrl}/v1/openapi.json`,
    `MCP: ${baseUrl}/mcp (Streamable HTTP, the same Bearer key; docs/mcp.md)`,
    ...dashboardLines(baseUrl, outcome),
    'Webhooks: receivers on http://127.0.0.1:<port> or http://localhost:<port> are allowed here (local host only; deployments require public HTTPS).',
    ...extra,
    'Stop with Ctrl-C.',
    '',
  ];
  return lines.filter((line, i, all) => !(line === '' && all[i - 1] === '')).join('\n');
}
