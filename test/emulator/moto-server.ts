import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../../infra/local/free-port.js';

/** The Python that runs moto: `PYTHON`, else `python3` (3.11+, with requirements-ci.txt installed). */
const python = () => process.env.PYTHON || 'python3';

export interface MotoServer {
  endpoint: string;
  stop(): Promise<void>;
}

/** moto's own control API: answers only on moto, so it tells moto from another emulator. */
export const MOTO_API_PATH = '/moto-api/data.json';

/**
 * Starts moto's server (`python3 -m moto.server`) on a free loopback port and waits until it
 * answers. One server holds every service (DynamoDB, SQS, Scheduler, KMS, Secrets Manager, S3,
 * CloudFormation); its state lives in memory and goes with the process.
 */
export async function startMotoServer(timeoutMs = 60_000): Promise<MotoServer> {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child = spawn(python(), ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Its request log goes to stderr: kept (the last lines) to explain a failed start, never printed otherwise.
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) =>
      reject(new Error(`${python()} could not start moto's server: ${error.message}`)),
    );
    child.once('exit', (code) =>
      reject(
        new Error(
          `moto's server exited (${code}) before answering; is moto[server] installed ` +
            `(python3 -m pip install -r requirements-ci.txt)?\n${stderr}`,
        ),
      ),
    );
  });
  exited.catch(() => undefined);
  try {
    await Promise.race([waitUntilAnswering(endpoint, timeoutMs), exited]);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { endpoint, stop: () => stopProcess(child) };
}

/** Whether the emulator at `endpoint` is moto (its control API answers). */
export async function isMoto(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint}${MOTO_API_PATH}`, { signal: AbortSignal.timeout(5000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

async function waitUntilAnswering(endpoint: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await isMoto(endpoint)) return;
    if (Date.now() > deadline)
      throw new Error(`moto's server did not answer at ${endpoint} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
