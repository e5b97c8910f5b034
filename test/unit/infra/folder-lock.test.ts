import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireFolderLock, DataFolderInUseError, isAlive } from '../../../infra/local/folder-lock.js';

/**
 * A process that has exited and is never reaped: `sh` backgrounds a `sleep 0`, then becomes
 * `sleep 30` (exec), which never waits for it. Resolves with the zombie's pid and the sleeper.
 */
function makeZombie(): Promise<{ pid: number; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout.once('data', (chunk: Buffer) => {
      const pid = Number(chunk.toString('utf8').trim());
      // Give `sleep 0` the moment it needs to end.
      setTimeout(() => resolve({ pid, stop: () => child.kill('SIGKILL') }), 300);
    });
    child.once('error', reject);
  });
}

describe('the data folder lock', () => {
  const folder = mkdtempSync(join(tmpdir(), 'smcp-lock-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('refuses a folder a live process holds, naming it, and gives it up on release', () => {
    // Prepare
    const path = join(folder, 'live.pid');
    const held = acquireFolderLock(path, 'A local host');

    // Act / Assess
    expect(() => acquireFolderLock(path, 'A local host')).toThrow(DataFolderInUseError);
    expect(() => acquireFolderLock(path, 'A local host')).toThrow(`(pid ${process.pid}) is already using`);
    held.release();
    acquireFolderLock(path, 'A local host').release();
  });

  it('takes over a lock whose processes are gone, or are zombies not yet reaped (a host killed with SIGKILL)', async () => {
    // Prepare: a lock naming a zombie, as a killed host leaves it until its new parent reaps it.
    const zombie = await makeZombie();
    try {
      expect(() => process.kill(zombie.pid, 0)).not.toThrow();
      expect(isAlive(zombie.pid)).toBe(false);
      const path = join(folder, 'stale.pid');
      writeFileSync(path, `${zombie.pid}\n`);

      // Act
      const lock = acquireFolderLock(path, 'A local host');

      // Assess
      lock.release();
    } finally {
      zombie.stop();
    }
  });
});
