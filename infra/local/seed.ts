import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Platform } from '../../shared/domain/platforms.js';
import type { Admin } from '../../shared/services/admin.js';

/** What is remembered of the demo tenant: ids only, never the key. */
export interface DemoRecord {
  tenantId: string;
  workspaceId: string;
  agentId: string;
  accounts: Record<Platform, string>;
  createdAt: string;
}

const FILE_NAME = 'demo.json';

export type SeedOutcome =
  | { created: true; demo: DemoRecord; apiKey: string }
  | { created: false; demo: DemoRecord };

/** On a data folder's first start, creates the demo tenant and returns its key, once. */
export async function seedDemoTenant(dataDir: string, admin: Admin): Promise<SeedOutcome> {
  const path = join(dataDir, FILE_NAME);
  if (existsSync(path)) return { created: false, demo: JSON.parse(readFileSync(path, 'utf8')) as DemoRecord };
  const result = await admin.bootstrap({ name: 'Demo' });
  const demo: DemoRecord = {
    tenantId: result.tenantId,
    workspaceId: result.workspaceId,
    agentId: result.agentId,
    accounts: result.accounts,
    createdAt: new Date().toISOString(),
  };
  writeFileSync(path, `${JSON.stringify(demo, null, 2)}\n`);
  return { created: true, demo, apiKey: result.apiKey };
}

export function describeDemo(baseUrl: string, outcome: SeedOutcome): string {
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
    'Webhooks: receivers on http://127.0.0.1:<port> or http://localhost:<port> are allowed here (local host only; deployments require public HTTPS).',
    'Stop with Ctrl-C.',
    '',
  ];
  return lines.filter((line, i, all) => !(line === '' && all[i - 1] === '')).join('\n');
}
