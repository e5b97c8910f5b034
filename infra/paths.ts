import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: esbuild's project root and where package-lock.json lives. */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Pins the dependency versions esbuild bundles (and the asset hash). */
export const lockFile = join(repoRoot, 'package-lock.json');

/** The entry file of a kind of Lambda: `functions/<name>.ts`. */
export function functionEntry(name: string): string {
  return join(repoRoot, 'functions', `${name}.ts`);
}
