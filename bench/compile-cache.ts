/**
 * Node 22's module compile cache (NODE_COMPILE_CACHE), shipped in a function's asset: what it would
 * save at a cold start, and whether a cache that no longer matches is ignored (issue 32, item 5).
 *
 * Node 22 keys each entry by the module's absolute path (22 has no portable mode; 24.12 added one)
 * and keeps the entries in a folder named after Node's exact version, the CPU architecture, V8's
 * cache tag (its version and flags) and the uid; each entry carries its source's size and CRC32,
 * and V8 checks its own version, flags and source again. So a build can only make a cache that
 * Lambda reads by running the bundle at /var/task, on arm64, with the exact Node 22 that Lambda runs
 * and as Lambda's user; here the cache is made the one way that matches: one run at the asset's own
 * path, then the files made read-only (0444, folders 0555) as in /var/task. The timings are what a
 * matching shipped cache would give, at best; the same cache after the asset moves, and a changed
 * bundle, show what happens when it does not match.
 */
import { chmodSync, cpSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { COMPILE_CACHE_VARIABLE } from './cold-start-protocol.js';

/** The cache's folder in the asset, beside index.mjs. */
export const COMPILE_CACHE_FOLDER = '.node-compile-cache';

export interface ColdStartSummary {
  importMs: number;
  invokeMs: number;
  outcome: string;
}

export interface CompileCacheCase {
  label: string;
  /** The built asset: index.mjs, and chunks/ for a split function. */
  assetDir: string;
  /** The bench's cold starts of `bundle` (median of `runs`, or of its own count) on Node 22, with `env` added to the function's. */
  coldStart: (bundle: string, env: Record<string, string>, runs?: number) => Promise<ColdStartSummary>;
}

interface CacheFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

function filesUnder(root: string): CacheFile[] {
  const found: CacheFile[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else {
        const stat = statSync(path);
        found.push({ path: relative(root, path), bytes: stat.size, mtimeMs: stat.mtimeMs });
      }
    }
  };
  visit(root);
  return found;
}

/** The files that are new or rewritten in `after` (a miss writes its entry at exit). */
export function writtenBetween(before: CacheFile[], after: CacheFile[]): string[] {
  const earlier = new Map(before.map((file) => [file.path, file]));
  return after
    .filter((file) => {
      const was = earlier.get(file.path);
      return !was || was.bytes !== file.bytes || was.mtimeMs !== file.mtimeMs;
    })
    .map((file) => file.path);
}

/** As an asset is in /var/task: nobody writes (folders 0555, files 0444, readable by Lambda's user). */
function makeReadOnly(root: string, writable = false): void {
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) makeReadOnly(path, writable);
    else chmodSync(path, writable ? 0o644 : 0o444);
  }
  chmodSync(root, writable ? 0o755 : 0o555);
}

export interface CompileCacheRow {
  label: string;
  cacheFiles: number;
  cacheBytes: number;
  /** The cache's folder: `v22.x.y-<arch>-<V8 tag>-<uid>`. */
  tagFolder: string;
  plain: ColdStartSummary;
  cached: ColdStartSummary;
  /** Files the cached runs wrote (none: every entry was accepted, so a read-only folder serves it). */
  writtenWhenCached: string[];
}

export interface CompileCacheMismatch {
  /**
   * The asset and its cache copied to another folder, a fresh copy per run (a miss writes its entry,
   * which the next run would find): median import, and the entries the runs wrote.
   */
  moved: { importMs: number; written: number };
  /** One byte added to the bundle in place, one run: its answer (the uncached answer expected), entries rewritten. */
  changed: ColdStartSummary & { written: number };
}

/** Makes the cache, times the bundle without and with it; `folder` is this case's own, empty. */
async function measureCase(item: CompileCacheCase, folder: string): Promise<CompileCacheRow> {
  const task = join(folder, 'task');
  cpSync(item.assetDir, task, { recursive: true });
  const bundle = join(task, 'index.mjs');
  const cacheDir = join(task, COMPILE_CACHE_FOLDER);
  const withCache = { [COMPILE_CACHE_VARIABLE]: cacheDir };

  // The "build": the bundle run where it will be read, its entries written at exit.
  await item.coldStart(bundle, withCache, 1);
  makeReadOnly(task);
  const made = filesUnder(cacheDir);

  const plain = await item.coldStart(bundle, {});
  const cached = await item.coldStart(bundle, withCache);
  return {
    label: item.label,
    cacheFiles: made.length,
    cacheBytes: made.reduce((sum, file) => sum + file.bytes, 0),
    tagFolder: made[0]?.path.split('/')[0] ?? '(none)',
    plain,
    cached,
    writtenWhenCached: writtenBetween(made, filesUnder(cacheDir)),
  };
}

/** The first case's cache where it no longer matches: moved elsewhere, and its bundle changed. */
async function measureMismatch(
  item: CompileCacheCase,
  folder: string,
  runs: number,
): Promise<CompileCacheMismatch> {
  const task = join(folder, 'task');
  // Writable again, so that a miss shows as the entries Node writes at exit.
  makeReadOnly(task, true);
  const movedImports: number[] = [];
  let movedWritten = 0;
  for (let run = 0; run < runs; run++) {
    const moved = join(folder, `moved-${run}`);
    cpSync(task, moved, { recursive: true });
    const movedCache = join(moved, COMPILE_CACHE_FOLDER);
    const before = filesUnder(movedCache);
    const result = await item.coldStart(
      join(moved, 'index.mjs'),
      { [COMPILE_CACHE_VARIABLE]: movedCache },
      1,
    );
    movedImports.push(result.importMs);
    movedWritten += writtenBetween(before, filesUnder(movedCache)).length;
  }

  const cacheDir = join(task, COMPILE_CACHE_FOLDER);
  const beforeChange = filesUnder(cacheDir);
  const bundle = join(task, 'index.mjs');
  writeFileSync(bundle, '\n', { flag: 'a' });
  const changedRun = await item.coldStart(bundle, { [COMPILE_CACHE_VARIABLE]: cacheDir }, 1);
  return {
    moved: { importMs: median(movedImports), written: movedWritten },
    changed: { ...changedRun, written: writtenBetween(beforeChange, filesUnder(cacheDir)).length },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

export interface CompileCacheReport {
  rows: CompileCacheRow[];
  mismatch: CompileCacheMismatch | undefined;
}

/** Every case in its own folder under `scratch`, one after another; the first also where it does not match. */
export async function measureCompileCache(
  cases: CompileCacheCase[],
  scratch: string,
  runs: number,
): Promise<CompileCacheReport> {
  const rows: CompileCacheRow[] = [];
  let mismatch: CompileCacheMismatch | undefined;
  for (const [index, item] of cases.entries()) {
    const folder = join(scratch, `compile-cache-${index}`);
    mkdirSync(folder);
    rows.push(await measureCase(item, folder));
    if (index === 0) mismatch = await measureMismatch(item, folder, runs);
  }
  return { rows, mismatch };
}

const ms = (value: number) => value.toFixed(1);

/** The report as the bench prints it (a table, then what happens when the cache does not match). */
export function formatCompileCache(report: CompileCacheReport, nodeVersion: string, runs: number): string {
  const headers = [
    'function (first request)',
    'cache files',
    'cache KiB',
    'import',
    'import cached',
    'saved',
    'first call',
    'first call cached',
    'written when cached',
  ];
  const cells = report.rows.map((row) => [
    row.label,
    String(row.cacheFiles),
    (row.cacheBytes / 1024).toFixed(1),
    ms(row.plain.importMs),
    ms(row.cached.importMs),
    `${((100 * (row.plain.importMs - row.cached.importMs)) / row.plain.importMs).toFixed(0)}%`,
    ms(row.plain.invokeMs),
    ms(row.cached.invokeMs),
    row.writtenWhenCached.length === 0 ? 'nothing' : row.writtenWhenCached.join(' '),
  ]);
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...cells.map((row) => row[i]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === 0 || i === 8 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const lines = [
    `\nNode 22's compile cache in the asset (bench/compile-cache.ts; ${nodeVersion}, median of ${runs}): made by ` +
      "one run at the asset's own path, then read-only (files 0444, folders 0555), as a build would have to " +
      'make it for /var/task',
    line(headers),
    line(widths.map((width) => '-'.repeat(width))),
    ...cells.map(line),
    `cache folder: ${report.rows[0]?.tagFolder ?? '(none)'} (Node's version, CPU architecture, V8's cache tag, uid: ` +
      'a Lambda whose Node, CPU or user differs finds no folder of its own and compiles as without)',
  ];
  const { mismatch } = report;
  const first = report.rows[0];
  if (mismatch && first) {
    lines.push(
      `${first.label}, asset and cache copied to another folder (a fresh copy per run): import ${ms(mismatch.moved.importMs)} ms, ` +
        `${mismatch.moved.written} entries written: ${mismatch.moved.written > 0 ? 'a miss (entries are keyed by absolute path)' : 'read'}`,
      `${first.label}, bundle changed by one byte: answer ${mismatch.changed.outcome} (uncached ${first.plain.outcome}), ` +
        `${mismatch.changed.written} entries rewritten: ${mismatch.changed.outcome === first.plain.outcome && mismatch.changed.written > 0 ? 'the stale entry ignored' : 'CHECK'}`,
    );
  }
  return lines.join('\n');
}
