import { marshall } from '@aws-sdk/util-dynamodb';
import { keys, toItem } from '../shared/adapters/dynamodb/keys.js';
import { apiKeyHint, generateApiKey, hashApiKey } from '../shared/domain/api-keys.js';
import { PERMISSIONS } from '../shared/domain/permissions.js';
import type { Agent, ApiKeyRecord, Tenant } from '../shared/domain/tenancy.js';

/**
 * What bench/bundles.ts sends the MCP function and the REST operations it is compared with: one
 * tenant, agent and key in the stub's DynamoDB (bench/cold-start-child.ts finds them by key), so a
 * request with API_KEY gets past authentication, and the JSON-RPC messages of an agent's session.
 */

export const API_KEY = generateApiKey();
export const UNKNOWN_KEY = `smcp_${'0'.repeat(64)}`;

const NOW = new Date().toISOString();
const TENANT: Tenant = {
  tenantId: 'tenant_bench',
  name: 'bench',
  planTier: 'pro',
  planStatus: 'active',
  createdAt: NOW,
};
const AGENT: Agent = {
  agentId: 'agent_bench',
  tenantId: TENANT.tenantId,
  name: 'bench',
  scope: { kind: 'all' },
  permissions: [...PERMISSIONS],
  createdAt: NOW,
};
const KEY: ApiKeyRecord = {
  keyId: 'key_bench',
  tenantId: TENANT.tenantId,
  agentId: AGENT.agentId,
  keyHash: hashApiKey(API_KEY),
  hint: apiKeyHint(API_KEY),
  createdAt: NOW,
};

/** The stub's DynamoDB items (marshalled), for the child's DYNAMO_ITEMS_VARIABLE. */
export const DYNAMO_ITEMS = [
  toItem('tenant', keys.tenant(TENANT.tenantId), TENANT),
  toItem('agent', keys.agent(TENANT.tenantId, AGENT.agentId), AGENT),
  toItem('apiKey', keys.apiKey(KEY.keyHash), KEY),
].map((item) => marshall(item, { removeUndefinedValues: true }));

/** A POST /mcp's headers and JSON-RPC body. */
export interface McpRequest {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

let nextId = 1;

function mcpRequest(key: string, message: Record<string, unknown>, protocolHeader = true): McpRequest {
  return {
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      // After initialize, the SDK's client sends the version it agreed.
      ...(protocolHeader && { 'mcp-protocol-version': '2025-06-18' }),
    },
    body: { jsonrpc: '2.0', ...message },
  };
}

export const initialize = (key: string): McpRequest =>
  mcpRequest(
    key,
    {
      id: nextId++,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1.0.0' },
      },
    },
    false,
  );
export const initialized = (): McpRequest => mcpRequest(API_KEY, { method: 'notifications/initialized' });
export const toolsList = (): McpRequest => mcpRequest(API_KEY, { id: nextId++, method: 'tools/list' });
export const toolsCall = (name: string, args: Record<string, unknown> = {}): McpRequest =>
  mcpRequest(API_KEY, { id: nextId++, method: 'tools/call', params: { name, arguments: args } });
