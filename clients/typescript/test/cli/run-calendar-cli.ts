import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The bin's source: run with tsx, as `npx social-calendar` runs its build. */
export const CLI_PATH = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliTarget {
  baseUrl: string;
  apiKey: string;
}

/** tsx's loader, found from this repository whatever directory the tool runs in. */
const TSX = import.meta.resolve('tsx');

/** The tool as a user runs it: a child process, the service and key from the environment. */
export function startCli(target: CliTarget, args: string[], cwd: string): ChildProcess {
  return spawn(process.execPath, ['--import', TSX, CLI_PATH, ...args], {
    cwd,
    env: {
      ...process.env,
      SOCIAL_PUBLISHING_URL: target.baseUrl,
      SOCIAL_PUBLISHING_API_KEY: target.apiKey,
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs the tool to its end. */
export function runCli(target: CliTarget, args: string[], cwd: string): Promise<CliRun> {
  const child = startCli(target, args, cwd);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
