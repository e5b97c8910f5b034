import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { type Logger, silentLogger } from '../../shared/ports/logger.js';
import { acquireFolderLock, type FolderLock } from './folder-lock.js';
import { freePort } from './free-port.js';
import { assertJava } from './java.js';

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  /** The Java process serving now (a new one after a restart). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** Folder for the database file; absent: in memory (tests). */
  dbPath?: string;
  port?: number;
  startTimeoutMs?: number;
  /**
   * Starts Java again, on the same port and data, when it exits without being asked to (killed,
   * out of memory): the host's clients reconnect by themselves and the service heals. Off by
   * default; the local host turns it on.
   */
  restartWhenItDies?: boolean;
  /** Where the restarts are told (once when Java dies, once when it serves again). */
  logger?: Logger;
  /** Waits before restart attempts (doubling from the first, capped at the last). Default 1 s … 30 s. */
  restartDelaysMs?: { first: number; max: number };
}

/** The emulator folder of the npm package amplify-dynamodb-simulator, which ships Amazon's jar. */
function emulatorDirectory(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

/** Runs DynamoDB Local's own main class and ends Java when this process is gone (see the file). */
const LAUNCHER = join(import.meta.dirname, 'java', 'DynamoDbLocalLauncher.java');

/** The lock file in a database folder: which Java serves it. */
const LOCK_FILE = 'dynamodb-local.pid';

async function waitUntilServing(
  endpoint: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
) {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`DynamoDB Local exited early:\n${output()}`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
    throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms:\n${output()}`);
  } finally {
    client.destroy();
  }
}

/**
 * Starts Amazon's DynamoDB Local with the machine's Java, and waits until it answers. When no port
 * is asked for, a free one is picked; since another process may take it before Java binds it (two
 * hosts starting at once), a start that fails is tried again on a new port.
 *
 * With a database folder, one Java at a time may serve it: a second start is refused
 * (DataFolderInUseError) rather than running two JVMs on one `-dbPath`. Java ends when this
 * process does, even when it is killed with SIGKILL (the launcher watches its standard input).
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  assertJava();
  if (options.dbPath) mkdirSync(options.dbPath, { recursive: true });
  const lock = options.dbPath
    ? acquireFolderLock(join(options.dbPath, LOCK_FILE), 'DynamoDB Local')
    : undefined;
  try {
    if (options.port !== undefined) return await supervise(options.port, options, lock);
    for (let attempt = 1; ; attempt++) {
      try {
        return await supervise(await freePort(), options, lock);
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  } catch (error) {
    lock?.release();
    throw error;
  }
}

interface RunningJava {
  child: ChildProcess;
  exited: Promise<void>;
  output: () => string;
}

function spawnJava(port: number, options: DynamoDbLocalOptions): RunningJava {
  const storage = options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory'];
  const child = spawn(
    'java',
    [
      '-Djava.library.path=./DynamoDBLocal_lib',
      // The jar's manifest brings its libraries onto the class path.
      '-cp',
      'DynamoDBLocal.jar',
      LAUNCHER,
      '-port',
      String(port),
      // One database for every access key and region, so the CLI and the host see the same data.
      '-sharedDb',
      '-disableTelemetry',
      ...storage,
    ],
    // Standard input is a pipe this process never writes to: its end is Java's signal to stop.
    { cwd: emulatorDirectory(), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  // Java may be gone before the pipe is: writing nothing, there is nothing to report.
  child.stdin?.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, output: () => output };
}

async function supervise(
  port: number,
  options: DynamoDbLocalOptions,
  lock: FolderLock | undefined,
): Promise<DynamoDbLocal> {
  const log = (options.logger ?? silentLogger).with({ component: 'dynamodb-local', port });
  const endpoint = `http://127.0.0.1:${port}`;
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const delays = options.restartDelaysMs ?? { first: 1_000, max: 30_000 };
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let current: RunningJava | undefined;
  // If this process exits without stopping it, do not leave Java running behind (the launcher
  // covers a kill; this covers a normal exit that skipped stop()).
  const killOnExit = () => current?.child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const launch = async () => {
    const java = spawnJava(port, options);
    current = java;
    try {
      await waitUntilServing(endpoint, java.child, timeoutMs, java.output);
    } catch (error) {
      java.child.kill('SIGKILL');
      await java.exited;
      throw error;
    }
    lock?.record(java.child.pid);
    java.child.once('exit', (code, signal) => {
      if (stopping || !options.restartWhenItDies) return;
      log.warn('DynamoDB Local exited; restarting it on the same port and data', {
        exitCode: code,
        signal,
      });
      void restart(0);
    });
  };

  const restart = async (failures: number) => {
    if (stopping) return;
    try {
      await launch();
      log.info('DynamoDB Local is serving again', { restartAttempts: failures + 1 });
    } catch (error) {
      if (stopping) return;
      const waitMs = Math.min(delays.max, delays.first * 2 ** failures);
      if (failures === 0) log.warn('DynamoDB Local could not be restarted; trying again', { waitMs, error });
      restartTimer = setTimeout(() => void restart(failures + 1), waitMs);
    }
  };

  const stop = async () => {
    stopping = true;
    clearTimeout(restartTimer);
    process.removeListener('exit', killOnExit);
    const java = current;
    if (java && java.child.exitCode === null && java.child.signalCode === null) {
      java.child.kill('SIGTERM');
      const timer = setTimeout(() => java.child.kill('SIGKILL'), 5000);
      await java.exited;
      clearTimeout(timer);
    }
    lock?.release();
  };

  try {
    await launch();
  } catch (error) {
    stopping = true;
    process.removeListener('exit', killOnExit);
    throw error;
  }
  return { endpoint, port, pid: () => current?.child.pid, stop };
}
