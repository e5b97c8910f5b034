import { silentLogger } from '../../shared/ports/logger.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import { makeAdmin } from '../../shared/services/admin.js';
import { makeUserAdmin } from '../../shared/services/users/user-admin.js';
import { startFakeNetworks } from '../fake-networks/start.js';
import { DataFolderInUseError } from './folder-lock.js';
import { startLocalHost } from './host.js';
import { defaultDataDir } from './host-file.js';
import { DEFAULT_BODY_TIMEOUT_MS } from './http-server.js';
import { JavaMissingError } from './java.js';
import { describeDemo, seedDemoTenant } from './seed.js';

// Developer tools run on Node 20 too; the SDK's notice that future SDK releases need Node 22 is
// noise here (the lockfile pins the SDK, and Lambda runs Node 22).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * `npm start`: the whole service on this machine. PORT (default 3000) and DATA_DIR choose where;
 * DELIVERY_CONCURRENCY (default 30, as AWS from the start of a burst) how many delivery batches run at once;
 * LOCAL_AUTH_FAILURES_PER_MINUTE (default 30, 0 for no limit) how many 401 answers a client
 * address gets per minute before its requests with unproven keys are refused with 429;
 * LOCAL_BODY_TIMEOUT_SECONDS (default 30) how long a request's body may take to arrive after its
 * headers before the request is answered 408 and its connection closed.
 */
async function main() {
  const port = Number(process.env.PORT ?? '3000');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number, not "${process.env.PORT}".`);
    process.exit(2);
  }
  const dataDir = defaultDataDir();
  const seconds = (name: string, fallback: number) => {
    const value = Number(process.env[name] ?? fallback);
    if (!Number.isFinite(value) || value <= 0) {
      console.error(`${name} must be a positive number of seconds, not "${process.env[name]}".`);
      process.exit(2);
    }
    return value * 1000;
  };
  const wholeNumber = (name: string, min: number, max: number) => {
    const raw = process.env[name];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      console.error(`${name} must be a whole number from ${min} to ${max}, not "${raw}".`);
      process.exit(2);
    }
    return value;
  };
  const deliveryConcurrency = wholeNumber('DELIVERY_CONCURRENCY', 2, 1000);
  const authFailuresPerMinute = wholeNumber('LOCAL_AUTH_FAILURES_PER_MINUTE', 0, 1_000_000);
  // FAKE_NETWORKS=1: the networks' fakes start inside this process, so accounts connect through
  // a real OAuth redirect and posts publish end to end with no network account at all.
  const fakes = process.env.FAKE_NETWORKS === '1' ? await startFakeNetworks() : undefined;
  const networkEnv = { ...process.env, ...fakes?.env };
  console.log(`Starting the local host (data folder ${dataDir}) ...`);
  const host = await startLocalHost({
    networkEndpoints: loadNetworkEndpoints(networkEnv),
    appCredentials: envAppCredentials(networkEnv),
    dataDir,
    port,
    bodyTimeoutMs: seconds('LOCAL_BODY_TIMEOUT_SECONDS', DEFAULT_BODY_TIMEOUT_MS / 1000),
    ...(authFailuresPerMinute !== undefined && {
      authFailuresPerMinute: authFailuresPerMinute === 0 ? false : authFailuresPerMinute,
    }),
    delivery: {
      leaseMs: seconds('DELIVERY_LEASE_SECONDS', 20),
      ...(deliveryConcurrency !== undefined && { deliveryConcurrency }),
      reconcileIntervalMs: seconds('RECONCILE_INTERVAL_SECONDS', 5),
    },
  });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the HTTP server, s3rver and DynamoDB Local ...`);
    await host.stop();
    await fakes?.stop();
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const { tenancy, clock } = host.deps;
  const outcome = await seedDemoTenant(
    dataDir,
    makeAdmin({ tenancy, clock }),
    // The banner below says what was made; a log line in the middle of it would only be noise.
    makeUserAdmin({ users: host.users, tenancy, clock, logger: silentLogger }),
  );
  // One write: whoever reads the output sees the whole banner at once, the fakes' line included.
  const fakesLines = fakes
    ? [
        `Fake networks: ${fakes.names.join(', ')} run inside this host. Connect an account: POST ${host.baseUrl}/v1/workspaces/<workspace>/accounts/connect {"platform":"${fakes.platforms[0] ?? '<platform>'}"} and open the authorizeUrl (docs/networks.md).`,
      ]
    : [];
  console.log(describeDemo(host.baseUrl, outcome, fakesLines));
}

main().catch((error: unknown) => {
  if (error instanceof JavaMissingError || error instanceof DataFolderInUseError)
    console.error(error.message);
  else if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
    console.error(`Port ${process.env.PORT ?? '3000'} is in use. Choose another with PORT=<port> npm start.`);
  } else console.error('The local host failed to start:', error);
  process.exit(1);
});
