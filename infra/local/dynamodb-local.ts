import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { freePort } from './free-port.js';
import { assertJava } from './java.js';

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** Folder for the database file; absent: in memory (tests). */
  dbPath?: string;
  port?: number;
  startTimeoutMs?: number;
}

/** The emulator folder of the npm package amplify-dynamodb-simulator, which ships Amazon's jar. */
function emulatorDirectory(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

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
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited early:\n${output()}`);
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
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  assertJava();
  if (options.port !== undefined) return startOnPort(options.port, options);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort(await freePort(), options);
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

async function startOnPort(port: number, options: DynamoDbLocalOptions): Promise<DynamoDbLocal> {
  const storage = options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory'];
  if (options.dbPath) mkdirSync(options.dbPath, { recursive: true });
  const child = spawn(
    'java',
    [
      '-Djava.library.path=./DynamoDBLocal_lib',
      '-jar',
      'DynamoDBLocal.jar',
      '-port',
      String(port),
      // One database for every access key and region, so the CLI and the host see the same data.
      '-sharedDb',
      '-disableTelemetry',
      ...storage,
    ],
    { cwd: emulatorDirectory(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // If this process dies without stopping it, do not leave Java running behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilServing(endpoint, child, options.startTimeoutMs ?? 30_000, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, port, stop };
}
