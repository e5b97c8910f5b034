/**
 * The MCP function as the stack deploys it (issue 32): its entry generated at synth
 * (infra/mcp-entry.ts), built with code splitting (infra/constructs/lambda-bundling.ts), run as
 * its own process from its asset's `index.mjs`, behind API Gateway's event, on the test host's
 * DynamoDB Local tables. The local host serves /mcp with the same handler built in process; this
 * is the built one: the catalog it was given at build, and each tool's chunk loaded on its call.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitBuildOptions } from '../../../infra/constructs/lambda-bundling.js';
import { writeMcpEntry } from '../../../infra/mcp-entry.js';
import { repoRoot } from '../../../infra/paths.js';
import { newId } from '../../../shared/domain/ids.js';
import { operations } from '../../../shared/operations/registry.js';
import { configToEnv } from '../../../shared/runtime/config.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';
import { connectMcp, type McpSession } from './support.js';

/** Building the whole MCP function and starting it takes a while on a loaded 2-core machine. */
const START_TIMEOUT_MS = 120_000;

/** Starts the built function's server; resolves with its port once it says it listens. */
function serveBuilt(
  bundle: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'test/e2e/mcp/serve-built-function.ts'), bundle],
    { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /^listening (\d+)$/m.exec(output)?.[1];
      if (port) resolve({ child, port: Number(port) });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`The built MCP function exited (${code}):\n${output}`)));
  });
}

describe('the MCP function as deployed (split build, run from its asset)', () => {
  let host: TestHost;
  let scratch: string;
  let server: ChildProcess | undefined;
  let built: McpSession;
  let local: McpSession;
  let workspaceId: string;

  beforeAll(async () => {
    host = await startTestHost();
    const tenant = await host.admin.bootstrap({ name: 'Deployed MCP' });
    workspaceId = tenant.workspaceId;
    scratch = mkdtempSync(join(tmpdir(), 'smcp-mcp-asset-'));
    const asset = join(scratch, 'asset');
    await build(splitBuildOptions(writeMcpEntry(operations, join(scratch, 'entry')), asset));
    const started = await serveBuilt(join(asset, 'index.mjs'), {
      ...configToEnv(host.config),
      // What Lambda gives every function; DynamoDB Local and s3rver accept any.
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      POWERTOOLS_LOG_LEVEL: 'WARN',
      POWERTOOLS_METRICS_DISABLED: 'true',
    });
    server = started.child;
    const client = new Client({ name: 'deployed-function-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${started.port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${tenant.apiKey}` } },
    });
    await client.connect(transport);
    const { tools } = await client.listTools();
    built = {
      client,
      tools,
      async call(name, args = {}) {
        const result = await client.callTool({ name, arguments: args });
        const meta = (result._meta ?? {}) as Record<string, unknown>;
        return {
          isError: result.isError === true,
          status: Number(meta.status),
          body: result.structuredContent as Record<string, unknown> | undefined,
          meta,
          text: [],
        };
      },
      close: () => client.close(),
    };
    local = await connectMcp(host, tenant.apiKey);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await built?.close();
    await local?.close();
    server?.kill();
    await host?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('is split: an entry and a chunk per tool (and shared chunks) in its asset', () => {
    // Act
    const chunks = readdirSync(join(scratch, 'asset', 'chunks')).filter((file) => file.endsWith('.mjs'));

    // Assess
    expect(chunks.length).toBeGreaterThanOrEqual(built.tools.length);
  });

  it('lists, from the catalog it was built with, the tools the local host lists', () => {
    // Assess
    expect(built.tools).toEqual(local.tools);
  });

  it('answers a tool call from its chunk, with the same answer as the local host', async () => {
    // Act
    const fromBuilt = await built.call('listWorkspaces');
    const fromLocal = await local.call('listWorkspaces');

    // Assess
    expect(fromBuilt.isError).toBe(false);
    expect(fromBuilt.status).toBe(200);
    expect(fromBuilt.body).toEqual(fromLocal.body);
    expect(JSON.stringify(fromBuilt.body)).toContain(workspaceId);
  });

  it('loads a tool whose dependencies are a part of their own (S3 presigning) on its first call', async () => {
    // Act
    const issued = await built.call('createUploadUrl', {
      workspaceId,
      body: { filename: 'cat.png', mimeType: 'image/png', sizeBytes: 68 },
    });

    // Assess
    expect(issued.status).toBe(201);
    const mediaId = String(issued.body?.mediaId);
    const read = await local.call('getMedia', { workspaceId, mediaId });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ mediaId, status: 'pending' });
  });

  it('answers a refusal in the envelope, as the local host does', async () => {
    // Prepare
    const unknown = { workspaceId: newId('workspace') };

    // Act
    const fromBuilt = await built.call('listPosts', unknown);
    const fromLocal = await local.call('listPosts', unknown);

    // Assess
    expect(fromBuilt.isError).toBe(true);
    expect(fromBuilt.status).toBe(404);
    const withoutRequestId = (body: Record<string, unknown> | undefined) =>
      Object.fromEntries(Object.entries(body ?? {}).filter(([name]) => name !== 'requestId'));
    expect(withoutRequestId(fromBuilt.body)).toEqual(withoutRequestId(fromLocal.body));
    expect(fromBuilt.body).toMatchObject({ error: 'not_found' });
  });
});
