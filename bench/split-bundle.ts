import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { splitBuildOptions } from '../infra/constructs/lambda-bundling.js';
import { repoRoot } from '../infra/paths.js';

/**
 * A function built with code splitting as the stack builds it (infra/constructs/lambda-bundling.ts:
 * the MCP and dashboard functions): its size whole and what a cold start loads, for bench/bundles.ts.
 */
export interface SplitBuilt {
  /** Its `index.mjs`. */
  file: string;
  /** Every `.mjs` of the asset: the entry and all chunks. */
  files: number;
  totalBytes: number;
  totalGzipBytes: number;
  /** The entry and the chunks it imports statically: what a cold start reads before the handler exists. */
  startBytes: number;
  startGzipBytes: number;
  mapBytes: number;
  metafile: Metafile;
  /** The outputs a cold start loads, as the metafile names them. */
  startOutputs: Set<string>;
}

/** `output` and every chunk it imports statically (not `import()`'s). */
function staticClosure(metafile: Metafile, output: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(output);
  return seen;
}

/** Builds `entry` with code splitting into `outdir` (made here), and weighs it. */
export async function splitBundle(entry: string, outdir: string): Promise<SplitBuilt> {
  mkdirSync(outdir);
  const result = await build({ ...splitBuildOptions(entry, outdir), metafile: true });
  const metafile = result.metafile as Metafile;
  // The metafile names outputs relative to the working directory (the repository root).
  const outputs = Object.keys(metafile.outputs).filter((path) => path.endsWith('.mjs'));
  const startOutputs = staticClosure(metafile, relative(repoRoot, join(outdir, 'index.mjs')));
  const bytesOf = (paths: Iterable<string>) =>
    [...paths].reduce((sum, path) => sum + (metafile.outputs[path]?.bytes ?? 0), 0);
  const gzipOf = (paths: Iterable<string>) =>
    [...paths].reduce((sum, path) => sum + gzipSync(readFileSync(join(repoRoot, path))).length, 0);
  return {
    file: join(outdir, 'index.mjs'),
    files: outputs.length,
    totalBytes: bytesOf(outputs),
    totalGzipBytes: gzipOf(outputs),
    startBytes: bytesOf(startOutputs),
    startGzipBytes: gzipOf(startOutputs),
    mapBytes: outputs.reduce((sum, path) => sum + statSync(join(repoRoot, `${path}.map`)).size, 0),
    metafile,
    startOutputs,
  };
}

/**
 * The inputs that weigh most in what a cold start loads, by package (or folder of ours), or by the
 * name `nameOf` gives an input (a generated entry): [name, bytes].
 */
export function splitTopInputs(
  built: SplitBuilt,
  count: number,
  nameOf: (input: string) => string | undefined = () => undefined,
): [string, number][] {
  const bytes = new Map<string, number>();
  for (const path of built.startOutputs) {
    for (const [input, { bytesInOutput }] of Object.entries(built.metafile.outputs[path]?.inputs ?? {})) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const name =
        nameOf(input) ??
        match?.[1] ??
        input
          .replace(/^(?:\.\.\/)*/, '')
          .split('/')
          .slice(0, 2)
          .join('/');
      bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...bytes].sort(([, a], [, b]) => b - a).slice(0, count);
}
