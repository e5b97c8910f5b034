import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { resolve } from 'node:path';

/** Runs `npm start` as a user does, for end-to-end tests. */
const REPO = resolve(import.meta.dirname, '..', '..');

export interface Started {
  child: ChildProcess;
  output: () => string;
}

/** `npm start` in its own process group, as a terminal would run it; resolves once it prints its banner. */
export function startService(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const child = spawn('npm', ['start'], {
    cwd: REPO,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no banner in 60 s:\n${output}`)),
      60_000,
    );
    const poll = setInterval(() => {
      if (/Stop with Ctrl-C/.test(output)) {
        clearInterval(poll);
        clearTimeout(timer);
        resolvePromise({ child, output: () => output });
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Ctrl-C (SIGINT) or SIGTERM to the whole process group. npm itself ends by that signal (it re-raises it),
 * so what proves a clean stop is the service's own output, the closed ports and the removed host file.
 */
export function interrupt(
  started: Started,
  signal: NodeJS.Signals = 'SIGINT',
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolvePromise) => {
    // 'close', not 'exit': npm may exit first; the service holds the pipes until it has stopped.
    started.child.once('close', (code, signal) => resolvePromise({ code, signal }));
    process.kill(-(started.child.pid as number), signal);
  });
}

export function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolvePromise(false);
    });
    socket.once('error', () => resolvePromise(true));
  });
}

/** What the banner of `npm start` tells a user: the address, the workspace, the key (first start only) and the sandbox X account. */
export function bannerOf(started: Started) {
  const output = started.output();
  const line = (label: string) => new RegExp(`^${label}: (\\S+)$`, 'm').exec(output)?.[1] as string;
  return {
    baseUrl: line('Base URL'),
    workspaceId: line('Workspace'),
    apiKey: /^API key: (smcp_[0-9a-f]{64})$/m.exec(output)?.[1],
    twitter: /^ {2}twitter\s+(acc_\S+)$/m.exec(output)?.[1] as string,
  };
}
