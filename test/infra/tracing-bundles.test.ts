import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { splitBuildOptions } from '../../infra/constructs/lambda-bundling.js';
import { writeMcpEntry } from '../../infra/mcp-entry.js';
import { writeOperationEntry } from '../../infra/operation-entries.js';
import { functionEntry } from '../../infra/paths.js';
import { operationById, operations } from '../../shared/operations/registry.js';

/**
 * Where the X-Ray SDK is bundled (docs/operating.md "Traces"): in the functions that call networks
 * or fan out, whose entries import shared/runtime/with-tracing.ts, and in no request-path function,
 * not even unevaluated. Every file of each asset counts (a split function's chunks too).
 */
describe('the X-Ray SDK in the bundles', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tracing-bundles-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const bundledInputs = async (entry: string): Promise<string[]> => {
    const { metafile } = await build({
      ...splitBuildOptions(entry, join(scratch, 'out')),
      write: false,
      metafile: true,
      logLevel: 'error',
    });
    return Object.values((metafile as Metafile).outputs).flatMap((output) => Object.keys(output.inputs));
  };
  const hasXray = (inputs: string[]) =>
    inputs.some((input) => input.includes('node_modules/aws-xray-sdk-core/'));

  it('is in no request-path function: an operation, MCP, the dashboard, the fallback', async () => {
    const entries = {
      listWorkspaces: writeOperationEntry(operationById('listWorkspaces'), join(scratch, 'operations')),
      createPost: writeOperationEntry(operationById('createPost'), join(scratch, 'operations')),
      mcp: writeMcpEntry(operations, join(scratch, 'mcp')),
      dashboard: functionEntry('dashboard'),
      fallback: functionEntry('fallback'),
    };
    for (const [name, entry] of Object.entries(entries)) {
      const inputs = await bundledInputs(entry);
      expect(inputs.length, name).toBeGreaterThan(0);
      expect(hasXray(inputs), name).toBe(false);
    }
  });

  it('is in the functions that call networks or fan out', async () => {
    for (const name of ['delivery-worker', 'webhook-dispatcher', 'outbox']) {
      expect(hasXray(await bundledInputs(functionEntry(name))), name).toBe(true);
    }
  });
});
