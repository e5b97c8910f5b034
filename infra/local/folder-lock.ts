import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** A second process asked for a folder another live process holds. */
export class DataFolderInUseError extends Error {
  override readonly name = 'DataFolderInUseError';
  constructor(
    readonly folder: string,
    readonly holder: string,
    readonly pids: readonly number[],
  ) {
    super(
      `${holder} (pid ${pids.join(', ')}) is already using ${folder}. Stop it first (Ctrl-C in its ` +
        `terminal, or kill ${pids.join(' ')}), or start this one on another folder with DATA_DIR=<folder>.`,
    );
  }
}

export interface FolderLock {
  /** Adds a process that works on the folder for the holder (its Java), so it counts as live too. */
  record(pid: number | undefined): void;
  /** Gives the folder up (the lock file goes). */
  release(): void;
}

/** The states /proc gives a process that has ended: zombie, or dead while it goes. */
const ENDED_STATE = /^[ZX]$/;

/**
 * A process that has ended but not yet been reaped by its parent (a zombie: state Z, or X while it
 * goes) still answers signal 0. A host killed with SIGKILL is one until its new parent reaps it,
 * which may take a while in a container: it holds nothing, so it does not count.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (command) state …": the command may hold spaces and parentheses; the state follows the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return ENDED_STATE.test(state);
  } catch {
    // No /proc (not Linux), or it went meanwhile: signal 0 has spoken.
    return false;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function pidsIn(path: string): number[] {
  try {
    return readFileSync(path, 'utf8')
      .split(/\s+/)
      .map(Number)
      .filter((pid) => Number.isInteger(pid) && pid > 0);
  } catch {
    return [];
  }
}

/**
 * Takes a folder for this process through a lock file created exclusively, holding the pids of
 * the processes that work on it. A lock whose processes are all gone (a host killed with SIGKILL)
 * is stale and taken over; a live one is refused with DataFolderInUseError.
 */
export function acquireFolderLock(path: string, holder: string): FolderLock {
  const pids = [process.pid];
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      writeFileSync(fd, `${pids.join(' ')}\n`);
      closeSync(fd);
      let released = false;
      return {
        record(pid) {
          if (released || pid === undefined || pids.includes(pid)) return;
          pids.push(pid);
          writeFileSync(path, `${pids.join(' ')}\n`);
        },
        release() {
          if (released) return;
          released = true;
          rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const live = pidsIn(path).filter(isAlive);
      if (live.length > 0) throw new DataFolderInUseError(dirname(path), holder, live);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${path}: another process keeps making it.`);
}
