import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A state file of a stand-in that cannot be read back: its path is named so it can be fixed by hand. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
  constructor(
    readonly path: string,
    options: { cause: unknown },
  ) {
    super(`Cannot read ${path}: it is not the JSON this stand-in writes. Fix or delete it.`, options);
  }
}

/**
 * Writes JSON so that a crash at any moment leaves either the old file or the new one, never half
 * of one: the text goes to a temporary file beside it, is flushed to disk, then renamed over the
 * old file (a rename within one folder is atomic).
 */
export function writeJsonAtomic(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * writeJsonAtomic without blocking the process: the same temporary file, flush and rename, through
 * the asynchronous file API. The caller runs one at a time per path (the temporary name is shared).
 */
/**
 * Opens for writing, making the folder only when it is missing: the stream poller writes its
 * checkpoint after every batch, and a mkdir each time was 0.8 % of the local host's CPU.
 */
async function openCreatingFolder(path: string) {
  try {
    return await open(path, 'w');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(path), { recursive: true });
    return open(path, 'w');
  }
}

export async function writeJsonAtomicAsync(path: string, value: unknown): Promise<void> {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await openCreatingFolder(temporary);
  try {
    await file.writeFile(text);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The file's JSON, or undefined when there is no file yet; a file that is not JSON throws StateFileError. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new StateFileError(path, { cause });
  }
}
