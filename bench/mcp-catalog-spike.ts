/**
 * Issue 32 spike: the MCP function today beside its catalog-first prototype (infra/mcp-entry.ts),
 * each bundled as CDK bundles a function (bench/bundles.ts's options), in the same run:
 * `BENCH_RUNS=3 npx tsx bench/mcp-catalog-spike.ts`.
 *
 * Sizes (whole output, and what a `tools/list` loads: the entry and the chunks it imports
 * statically), the 15 largest inputs of each, then cold starts in bench/cold-start-child.ts: a first
 * request with an unknown key, a first `tools/list`, a first `tools/call`, and a connect
 * (initialize, initialized, tools/list, tools/call, tools/call again) in one instance. The stub's
 * DynamoDB holds one tenant, agent and key, so a request with that key gets past authentication.
 * Not a test: nothing is asserted.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { marshall } from '@aws-sdk/util-dynamodb';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { writeMcpEntry } from '../infra/mcp-entry.js';
import { repoRoot } from '../infra/paths.js';
import { keys, toItem } from '../shared/adapters/dynamodb/keys.js';
import { apiKeyHint, generateApiKey, hashApiKey } from '../shared/domain/api-keys.js';
import { PERMISSIONS } from '../shared/domain/permissions.js';
import type { Agent, ApiKeyRecord, Tenant } from '../shared/domain/tenancy.js';
import { operationById, operations } from '../shared/operations/registry.js';
import {
  apiEvent,
  cdkBuildOptions,
  type Entry,
  functionEnvironment,
  kib,
  median,
  ms,
  processEnvironment,
  runChild,
} from './bundles.js';
import { type ColdStartResult, DYNAMO_ITEMS_VARIABLE } from './cold-start-protocol.js';
import { runBenchmark } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

// ---- The tenant behind the key the requests carry.

const API_KEY = generateApiKey();
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
const DYNAMO_ITEMS = [
  toItem('tenant', keys.tenant(TENANT.tenantId), TENANT),
  toItem('agent', keys.agent(TENANT.tenantId, AGENT.agentId), AGENT),
  toItem('apiKey', keys.apiKey(KEY.keyHash), KEY),
].map((item) => marshall(item, { removeUndefinedValues: true }));

// ---- Requests.

const UNKNOWN_KEY = `smcp_${'0'.repeat(64)}`;
let nextId = 1;

function mcpEvent(key: string, message: Record<string, unknown>, protocolHeader = true) {
  return apiEvent(
    'POST',
    '/mcp',
    'ANY /mcp',
    {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(protocolHeader && { 'mcp-protocol-version': '2025-06-18' }),
    },
    { jsonrpc: '2.0', ...message },
  );
}

const initialize = (key: string) =>
  mcpEvent(
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
const initialized = () => mcpEvent(API_KEY, { method: 'notifications/initialized' });
const toolsList = () => mcpEvent(API_KEY, { id: nextId++, method: 'tools/list' });
const toolsCall = (name: string, args: Record<string, unknown> = {}) =>
  mcpEvent(API_KEY, { id: nextId++, method: 'tools/call', params: { name, arguments: args } });

interface Scenario {
  label: string;
  first: () => unknown;
  followUps?: () => unknown[];
}

const MCP_SCENARIOS: Scenario[] = [
  { label: 'initialize, unknown key → 401', first: () => initialize(UNKNOWN_KEY) },
  { label: 'first request tools/list', first: toolsList },
  { label: 'first request tools/call listWorkspaces', first: () => toolsCall('listWorkspaces') },
  {
    label: 'first request tools/call createPost (invalid body)',
    first: () => toolsCall('createPost', { workspaceId: 'ws_x', body: {} }),
  },
  {
    label: 'connect: initialize; then initialized, tools/list, tools/call listWorkspaces ×2, listAccounts',
    first: () => initialize(API_KEY),
    followUps: () => [
      initialized(),
      toolsList(),
      toolsCall('listWorkspaces'),
      toolsCall('listWorkspaces'),
      toolsCall('listAccounts', { workspaceId: 'ws_x' }),
    ],
  },
];

// ---- Building.

interface Built {
  label: string;
  entry: Entry;
  file: string;
  /** The entry's output as the metafile names it. */
  entryOutput: string;
  /** Every output file's bytes (the whole asset). */
  totalBytes: number;
  /** The entry file and the chunks it imports statically: what is read before the handler exists. */
  startBytes: number;
  metafile: Metafile;
}

function staticClosure(metafile: Metafile, output: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(output);
  return seen;
}

async function bundle(
  label: string,
  entry: Entry,
  entryPoint: string,
  scratch: string,
  split: boolean,
): Promise<Built> {
  const outdir = join(scratch, label.replace(/\W+/g, '-'));
  mkdirSync(outdir);
  const base = cdkBuildOptions(entry, outdir);
  const options: BuildOptions = {
    ...base,
    entryPoints: [entryPoint],
    metafile: true,
    ...(split && {
      outfile: undefined,
      outdir,
      splitting: true,
      entryNames: 'index',
      chunkNames: 'chunks/[name]-[hash]',
      outExtension: { '.js': '.mjs' },
    }),
  };
  const result = await build(options);
  const metafile = result.metafile as Metafile;
  const outputs = Object.keys(metafile.outputs).filter((path) => path.endsWith('.mjs'));
  // Metafile paths are relative to the working directory (the repository root).
  const entryPath = relative(repoRoot, join(outdir, 'index.mjs'));
  const bytesOf = (paths: Iterable<string>) =>
    [...paths].reduce((sum, path) => sum + (metafile.outputs[path]?.bytes ?? 0), 0);
  return {
    label,
    entry,
    file: join(outdir, 'index.mjs'),
    entryOutput: entryPath,
    totalBytes: bytesOf(outputs),
    startBytes: bytesOf(staticClosure(metafile, entryPath)),
    metafile,
  };
}

/** The inputs that weigh most in the given outputs, grouped by package (or by folder of ours). */
function topInputs(metafile: Metafile, outputs: Iterable<string>, count: number): string[][] {
  const bytes = new Map<string, number>();
  for (const path of outputs) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[path]?.inputs ?? {})) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const name = match
        ? match[1]
        : input
            .replace(/^(?:\.\.\/)*/, '')
            .split('/')
            .slice(0, 2)
            .join('/');
      bytes.set(name ?? input, (bytes.get(name ?? input) ?? 0) + bytesInOutput);
    }
  }
  return [...bytes]
    .sort(([, a], [, b]) => b - a)
    .slice(0, count)
    .map(([name, size]) => [name, kib(size)]);
}

// ---- Running.

interface Measured {
  importMs: number;
  firstMs: number;
  outcome: string;
  followUps: { ms: number; outcome: string }[];
}

async function coldStarts(
  childScript: string,
  scratch: string,
  built: Built,
  scenario: Scenario,
  operationId?: string,
): Promise<Measured> {
  const env = {
    ...processEnvironment(scratch, functionEnvironment(built.entry, operationId), false),
    [DYNAMO_ITEMS_VARIABLE]: JSON.stringify(DYNAMO_ITEMS),
  };
  const results: ColdStartResult[] = [];
  for (let run = 0; run < RUNS; run++) {
    results.push(
      await runChild(
        childScript,
        {
          bundle: built.file,
          functionName: built.entry,
          event: scenario.first(),
          followUps: scenario.followUps?.() ?? [],
        },
        env,
      ),
    );
  }
  const last = results[results.length - 1];
  const steps = last?.followUps?.length ?? 0;
  return {
    importMs: median(results.map((r) => r.importMs)),
    firstMs: median(results.map((r) => r.invokeMs)),
    outcome: last?.outcome ?? '',
    followUps: Array.from({ length: steps }, (_, i) => ({
      ms: median(results.map((r) => r.followUps?.[i]?.ms ?? Number.NaN)),
      outcome: last?.followUps?.[i]?.outcome ?? '',
    })),
  };
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'smcp-mcp-spike-'));
  try {
    const childScript = join(scratch, 'cold-start-child.mjs');
    await build({
      entryPoints: [join(repoRoot, 'bench/cold-start-child.ts')],
      bundle: true,
      absWorkingDir: repoRoot,
      outfile: childScript,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    // Generated into the scratch folder: node_modules may be another checkout's (a worktree's link).
    const generated = join(scratch, 'generated');
    const lazyEntry = writeMcpEntry(operations, {}, generated);
    const eagerEntry = writeMcpEntry(operations, { eagerDeps: true }, generated);
    const sdkCallsEntry = writeMcpEntry(operations, { toolCallsThroughSdk: true }, generated);
    const mcpSource = join(repoRoot, 'functions/mcp.ts');
    const variants = [
      await bundle('mcp today (functions/mcp.ts)', 'mcp', mcpSource, scratch, false),
      await bundle('catalog-first, one file, DynamoDB lazy', 'mcp', lazyEntry, scratch, false),
      await bundle('catalog-first, split, DynamoDB lazy', 'mcp', lazyEntry, scratch, true),
      await bundle('catalog-first, split, DynamoDB at top level', 'mcp', eagerEntry, scratch, true),
      await bundle(
        'catalog-first, split, DynamoDB lazy, tools/call via SDK',
        'mcp',
        sdkCallsEntry,
        scratch,
        true,
      ),
    ];
    const dashboard = await bundle(
      'dashboard today',
      'dashboard',
      join(repoRoot, 'functions/dashboard.ts'),
      scratch,
      false,
    );
    const { writeOperationEntry } = await import('../infra/operation-entries.js');
    const restOperations = ['listWorkspaces', 'listAccounts', 'createPost'];
    const rest = [];
    for (const id of restOperations) {
      rest.push(
        await bundle(
          `REST ${id}`,
          `operation:${id}`,
          writeOperationEntry(operationById(id), generated),
          scratch,
          false,
        ),
      );
    }

    console.log(
      `\nBundles (esbuild as infra/constructs/service-function.ts; split: + splitting, ESM chunks)`,
    );
    console.log(['bundle', 'total KiB', 'loaded at start KiB', 'files'].join('\t'));
    for (const built of [...variants, dashboard, ...rest]) {
      const files = Object.keys(built.metafile.outputs).filter((path) => path.endsWith('.mjs')).length;
      console.log([built.label, kib(built.totalBytes), kib(built.startBytes), files].join('\t'));
    }
    for (const built of variants.slice(0, 3)) {
      console.log(`\nTop 15 inputs loaded at start, ${built.label} (KiB)`);
      for (const row of topInputs(built.metafile, staticClosure(built.metafile, built.entryOutput), 15))
        console.log(`  ${row.join('\t')}`);
    }

    console.log(
      `\nCold starts: fresh node ${process.version} per run, AWS stubbed on loopback, median of ${RUNS}`,
    );
    console.log(
      ['bundle', 'first request', 'import ms', 'first ms', 'answer', 'then (ms answer)'].join('\t'),
    );
    for (const scenario of MCP_SCENARIOS) {
      for (const built of variants) {
        const measured = await coldStarts(childScript, scratch, built, scenario);
        console.log(
          [
            built.label,
            scenario.label,
            ms(measured.importMs),
            ms(measured.firstMs),
            measured.outcome,
            measured.followUps.map((step) => `${ms(step.ms)} ${step.outcome}`).join(' | '),
          ].join('\t'),
        );
      }
    }
    for (const built of rest) {
      const id = built.entry.slice('operation:'.length);
      const operation = operationById(id);
      const path = operation.path.replace(/\{[^}]+\}/g, 'ws_x');
      const scenario: Scenario = {
        label: `${operation.method} ${path}, valid key`,
        first: () =>
          apiEvent(
            operation.method,
            path,
            `${operation.method} ${operation.path}`,
            {
              authorization: `Bearer ${API_KEY}`,
              ...(operation.method === 'POST' && { 'content-type': 'application/json' }),
            },
            operation.method === 'POST' ? {} : undefined,
          ),
      };
      const measured = await coldStarts(childScript, scratch, built, scenario, id);
      console.log(
        [built.label, scenario.label, ms(measured.importMs), ms(measured.firstMs), measured.outcome].join(
          '\t',
        ),
      );
    }
    const dash = await coldStarts(childScript, scratch, dashboard, {
      label: 'GET /dashboard/workspaces, no session → 303',
      first: () =>
        apiEvent('GET', '/dashboard/workspaces', 'ANY /dashboard/{proxy+}', { accept: 'text/html' }),
    });
    console.log(
      [
        dashboard.label,
        'GET /dashboard/workspaces, no session',
        ms(dash.importMs),
        ms(dash.firstMs),
        dash.outcome,
      ].join('\t'),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

runBenchmark('bench/mcp-catalog-spike.ts', main);
