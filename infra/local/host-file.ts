import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TableNames } from '../../shared/adapters/dynamodb/tables.js';

/**
 * What a running local host tells other processes (the admin CLI) about itself. Written into the
 * data folder at start, removed at stop.
 */
export interface LocalHostFile {
  pid: number;
  baseUrl: string;
  region: string;
  dynamodbEndpoint: string;
  s3Endpoint: string;
  mediaBucket: string;
  tables: TableNames;
}

const FILE_NAME = 'local-host.json';

/** `DATA_DIR`, or the git-ignored `.data/local` folder of the repository. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR ?? join(import.meta.dirname, '..', '..', '.data', 'local'));
}

export function writeHostFile(dataDir: string, file: LocalHostFile): void {
  writeFileSync(join(dataDir, FILE_NAME), `${JSON.stringify(file, null, 2)}\n`);
}

export function removeHostFile(dataDir: string): void {
  rmSync(join(dataDir, FILE_NAME), { force: true });
}

/** The running host of a data folder, or undefined when none has started there (or it has stopped). */
export function readHostFile(dataDir: string): LocalHostFile | undefined {
  const path = join(dataDir, FILE_NAME);
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as LocalHostFile;
}
