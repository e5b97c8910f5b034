import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../../shared/http/operation.js';
import { operations } from '../../../shared/operations/registry.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';
import { connectMcp, type McpSession, toolOperations } from './support.js';

/** `workspace_id` → `workspaceId`, `idempotency-key` → `idempotencyKey`, as the issue names arguments. */
const camel = (name: string) =>
  name.replace(/[-_]([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

/** The annotations the issue documents for each operation. */
const OPEN_WORLD = [
  'createPost',
  'approvePost',
  'importMedia',
  'testWebhook',
  'retryWebhookDelivery',
  'refreshPostMetrics',
  'disconnectAccount',
];
/** What MCP reads for a hint a tool leaves out (the specification's defaults, as tools/list omits them). */
const MCP_DEFAULT_HINTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};
const hintsOf = (tool: Tool) => ({ ...MCP_DEFAULT_HINTS, ...tool.annotations });
const expectedAnnotations = (operation: Operation) => {
  const readOnly = operation.method === 'GET' || operation.id === 'validatePost';
  return {
    readOnlyHint: readOnly,
    // MCP reads destructiveHint only when readOnlyHint is false.
    ...(!readOnly && {
      destructiveHint: operation.method === 'DELETE' || ['cancelPost', 'rejectPost'].includes(operation.id),
    }),
    openWorldHint: OPEN_WORLD.includes(operation.id),
  };
};

describe('MCP tools/list over HTTP', () => {
  let host: TestHost;
  let mcp: McpSession;
  const toolOf = (operation: Operation): Tool => {
    const tool = mcp.tools.find((candidate) => candidate.name === operation.id);
    if (!tool) throw new Error(`No tool ${operation.id}`);
    return tool;
  };

  beforeAll(async () => {
    host = await startTestHost();
    const tenant = await host.admin.bootstrap({ name: 'Tool list' });
    mcp = await connectMcp(host, tenant.apiKey);
  });
  afterAll(async () => {
    await mcp.close();
    await host.stop();
  });

  it('the server introduces itself, with tools only and instructions for an agent', () => {
    expect(mcp.client.getServerVersion()?.name).toBe('social-publishing-api');
    expect(mcp.client.getServerCapabilities()?.tools).toBeDefined();
    expect(mcp.client.getInstructions()).toMatch(/listWorkspaces/);
  });

  it('one tool per key-authenticated operation with a full path: same names, same count, nothing else', () => {
    const names = mcp.tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(toolOperations.map((operation) => operation.id).sort());
    const notTools = operations.filter((operation) => !toolOperations.includes(operation));
    expect(notTools.map((operation) => operation.id)).toEqual(
      expect.arrayContaining(['getOpenApi', 'deleteMediaShort', 'deleteWebhookShort']),
    );
    for (const operation of notTools) expect(names).not.toContain(operation.id);
  });

  it.each(toolOperations.map((operation) => [operation.id, operation] as const))(
    '%s: a description opening with its summary, one flat inputSchema, the documented annotations',
    (_id, operation) => {
      const tool = toolOf(operation);
      expect(tool.description?.startsWith(`${operation.summary}. `)).toBe(true);
      expect(hintsOf(tool)).toMatchObject(expectedAnnotations(operation));

      const { params, query, headers, body } = operation.schemas;
      const expected = [
        ...Object.keys(params.shape).map(camel),
        ...Object.keys(query.shape),
        ...Object.keys(headers?.shape ?? {}).map(camel),
        ...(body ? ['body'] : []),
      ];
      expect(tool.inputSchema.type).toBe('object');
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(expected.sort());
      expect(tool.inputSchema.required).toEqual(expect.arrayContaining(Object.keys(params.shape).map(camel)));
      expect(tool.inputSchema).toMatchObject({ additionalProperties: false });
    },
  );

  it('an outputSchema on every tool whose operation answers a body, none on a 204', () => {
    for (const operation of toolOperations) {
      const tool = toolOf(operation);
      if (operation.successStatus === 204) expect(tool.outputSchema, operation.id).toBeUndefined();
      else expect(tool.outputSchema?.type, operation.id).toBe('object');
    }
    expect(toolOperations.some((operation) => operation.successStatus === 204)).toBe(true);
  });

  it('a read tool is read-only (so idempotent); createPost is not idempotent (a retry without idempotencyKey posts twice)', () => {
    for (const operation of toolOperations.filter((candidate) => candidate.method === 'GET')) {
      expect(toolOf(operation).annotations?.readOnlyHint, operation.id).toBe(true);
    }
    const createPost = toolOperations.find((operation) => operation.id === 'createPost');
    expect(createPost && hintsOf(toolOf(createPost)).idempotentHint).toBe(false);
    const deletes = toolOperations.filter((operation) => operation.method === 'DELETE');
    for (const operation of deletes)
      expect(toolOf(operation).annotations?.idempotentHint, operation.id).toBe(true);
  });
});
