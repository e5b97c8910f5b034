/**
 * `npm run test:api-fuzz [-- schemathesis run options]`: schemathesis (Python 3.11+, pinned in
 * requirements-ci.txt) against the local host on a fresh data folder. Every operation of the
 * served OpenAPI document gets all of schemathesis's checks (but those scripts/api-fuzz.toml turns
 * off, with reasons), with a fixed seed and a bounded number of cases: any server error, response
 * that breaks the document or undocumented status fails the run. The host, its DynamoDB Local and
 * the networks' fakes are stopped and the data folder removed whatever the outcome.
 *
 * The host runs in this process, as the e2e tests' does, so that nothing the fuzzer invents leaves
 * the machine: its media and webhook URLs name made-up public hosts, so the media fetcher and the
 * webhook sender here resolve no name and connect to no address (both refuse, as for a host that
 * does not resolve), accounts connect through the networks' fakes, and loopback receivers are
 * refused as in a deployment (they would reach whatever else listens on this machine).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startFakeNetworks } from '../infra/fake-networks/start.js';
import { type LocalHost, startLocalHost } from '../infra/local/host.js';
import type { Lookup } from '../shared/adapters/http/pinned-connection.js';
import { makeWebhookSender } from '../shared/adapters/http/webhook-sender.js';
import { makeMediaFetcher } from '../shared/runtime/media-fetcher.js';
import { envAppCredentials, loadNetworkEndpoints } from '../shared/runtime/network-config.js';
import { makeAdmin } from '../shared/services/admin.js';
import { withoutPytestStyleSummary } from './support/foreign-summary.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Thousands of refused requests would fill the output with warnings; errors (a 500's cause) still show.
process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const python = process.env.PYTHON ?? 'python3';
const schemathesis = [python, '-m', 'schemathesis.cli'] as const;

/** No name resolves: a made-up host gets the answer a host that does not exist gets. */
const resolveNothing: Lookup = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};
/** And no literal address is connected to either. */
const noAddress = () => false;

/** Where the host listens and whose key the fuzzer sends. */
interface Target {
  baseUrl: string;
  apiKey: string;
  workspaceId: string;
}

function schemathesisInstalled(): boolean {
  const [command, ...args] = schemathesis;
  return spawnSync(command, [...args, '--version'], { stdio: 'ignore' }).status === 0;
}

function runSchemathesis(target: Target, extraArgs: readonly string[]): Promise<number> {
  const [command, ...args] = schemathesis;
  const child = spawn(
    command,
    [
      ...args,
      '--config-file',
      join(repoRoot, 'scripts', 'api-fuzz.toml'),
      'run',
      `${target.baseUrl}/v1/openapi.json`,
      ...extraArgs,
    ],
    {
      cwd: repoRoot,
      // Its output is passed on line by line, its pytest-style closing line reworded (foreign-summary.ts).
      stdio: ['inherit', 'pipe', 'inherit'],
      env: {
        ...process.env,
        API_FUZZ_BASE_URL: target.baseUrl,
        API_FUZZ_API_KEY: target.apiKey,
        API_FUZZ_WORKSPACE_ID: target.workspaceId,
      },
    },
  );
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => process.stdout.write(`${withoutPytestStyleSummary(line)}\n`));
  const outputEnded = new Promise<void>((resolve) => lines.once('close', resolve));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      void outputEnded.then(() => resolve(code ?? (signal ? 1 : 0)));
    });
  });
}

async function main(): Promise<number> {
  if (!schemathesisInstalled()) {
    console.error(
      `schemathesis is not installed for ${python}: python3 -m pip install -r requirements-ci.txt (Python 3.11+).`,
    );
    return 1;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'smcp-api-fuzz-'));
  const fakes = await startFakeNetworks();
  let host: LocalHost | undefined;
  try {
    host = await startLocalHost({
      dataDir,
      port: 0,
      networkEndpoints: loadNetworkEndpoints(fakes.env),
      appCredentials: envAppCredentials(fakes.env),
      allowLoopbackReceivers: false,
      // The fuzzer sends hundreds of requests without a valid key from one address; the per-address
      // limit would answer them 429 where the ignored_auth check looks for 401. The limit has its own
      // test (test/e2e/auth-failure-limit.test.ts).
      authFailuresPerMinute: false,
      delivery: {
        fetchMedia: makeMediaFetcher({ lookup: resolveNothing, isAllowedAddress: noAddress }),
        sendWebhook: makeWebhookSender({ lookup: resolveNothing, isAllowedAddress: noAddress }),
      },
    });
    // A tenant on the enterprise plan: the free plan's 600 requests a minute would answer most of
    // a run with 429, leaving the logic behind it untested (the rate limiter has its own tests).
    const tenant = await makeAdmin({ tenancy: host.deps.tenancy, clock: host.deps.clock }).bootstrap({
      name: 'API fuzz',
      planTier: 'enterprise',
    });
    const target = { baseUrl: host.baseUrl, apiKey: tenant.apiKey, workspaceId: tenant.workspaceId };
    return await runSchemathesis(target, process.argv.slice(2));
  } finally {
    await host?.stop();
    await fakes.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('test:api-fuzz failed:', error);
    process.exit(1);
  },
);
